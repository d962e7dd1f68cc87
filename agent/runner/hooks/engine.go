package hooks

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Outcome is how one run of a hook went, for reports and /hooks.
type Outcome struct {
	Hook Hook
	// Text says what happened: "ran", "deny: <reason>" (PreToolUse),
	// "block: <reason>" (the other events), "timed out after 2s: killed".
	Text string
	// Problem is set when the hook failed (Text then says how).
	Problem bool
	At      time.Time
}

// Line is the outcome as steer run prints it on stderr:
// "hook PreToolUse[0] timed out after 2s: killed".
func (o Outcome) Line() string { return "hook " + o.Hook.Name() + " " + o.Text }

// Listed is a configured hook and its last outcome (Outcome.At zero when
// it has not run).
type Listed struct {
	Hook Hook
	Last Outcome
}

// Options configure an Engine.
type Options struct {
	// Dir is the workspace: hooks run there, and it is CLAUDE_PROJECT_DIR
	// and STEER_PROJECT_DIR.
	Dir string
	// Env is the hooks' environment before those two; nil is os.Environ.
	Env []string
	// Now defaults to time.Now.
	Now func() time.Time
	// Report is called with every outcome that is not a plain success (a
	// block, a denial, a failure, a timeout), on the goroutine of Run.
	Report func(Outcome)
}

// Engine runs the configured hooks. It is safe for concurrent use.
type Engine struct {
	hooks []Hook
	opts  Options
	env   []string

	mu   sync.Mutex
	last map[string]Outcome // by Hook.Name
}

// NewEngine makes an engine for hooks, checked by New.
func NewEngine(hooks []Hook, o Options) *Engine {
	if o.Now == nil {
		o.Now = time.Now
	}
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(append([]string(nil), env...), "CLAUDE_PROJECT_DIR="+o.Dir, "STEER_PROJECT_DIR="+o.Dir)
	return &Engine{hooks: hooks, opts: o, env: env, last: map[string]Outcome{}}
}

// Has reports whether any hook runs for in: a caller may skip building
// what it would send.
func (e *Engine) Has(in Input) bool { return len(e.matching(in)) > 0 }

func (e *Engine) matching(in Input) []Hook {
	if e == nil {
		return nil
	}
	var out []Hook
	for _, h := range e.hooks {
		if h.Event == in.HookEventName && (!h.Event.HasMatcher() || h.match.Match(in.matched())) {
			out = append(out, h)
		}
	}
	return out
}

// Run runs the hooks in's event chooses, in parallel, waits for all of
// them (each within its timeout, all within ctx) and combines their
// verdicts. A nil Engine runs nothing.
func (e *Engine) Run(ctx context.Context, in Input) Result {
	hs := e.matching(in)
	if len(hs) == 0 {
		return Result{}
	}
	in.Cwd = e.opts.Dir
	stdin, err := json.Marshal(in)
	if err != nil { // tool arguments came from JSON: this cannot fail for them
		stdin = []byte("{}")
	}
	vs := make([]Verdict, len(hs))
	var wg sync.WaitGroup
	for i, h := range hs {
		wg.Go(func() { vs[i] = run(ctx, h, e.opts.Dir, e.env, stdin) })
	}
	wg.Wait()
	for i, h := range hs {
		e.record(h, vs[i])
	}
	return Combine(vs)
}

// record keeps the outcome of a run and reports it unless it is a plain
// success.
func (e *Engine) record(h Hook, v Verdict) {
	o := Outcome{Hook: h, Text: "ran", At: e.opts.Now()}
	switch {
	case v.Problem != "":
		o.Text, o.Problem = v.Problem, true
	case v.Decision == Deny && h.Event != PreToolUse: // no permission to deny: the event is blocked
		o.Text = "block: " + v.Reason
	case v.Decision == Deny || v.Decision == Ask:
		o.Text = v.Decision.String() + ": " + v.Reason
	case v.Decision == Allow:
		o.Text = "allow"
	}
	e.mu.Lock()
	e.last[h.Name()] = o
	e.mu.Unlock()
	if e.opts.Report != nil && o.Text != "ran" && o.Text != "allow" {
		e.opts.Report(o)
	}
}

// List is every configured hook, in configuration order, with its last
// outcome.
func (e *Engine) List() []Listed {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Listed, len(e.hooks))
	for i, h := range e.hooks {
		out[i] = Listed{Hook: h, Last: e.last[h.Name()]}
	}
	return out
}
