package runner

import "time"

// HookView is a configured hook and how it last went, for /hooks and rpc
// `inspect {what:"hooks"}`.
type HookView struct {
	// Name is the hook as reports name it: "PreToolUse[0]".
	Name    string        `json:"name"`
	Event   string        `json:"event"`
	Matcher string        `json:"matcher"`
	Command string        `json:"command"`
	Timeout time.Duration `json:"timeoutNs"`
	// Source is the config file it came from.
	Source string `json:"source"`
	// Last is its last outcome ("ran", "deny: …", "timed out after 2s:
	// killed"), "" before it has run; LastAt when; Problem when it failed.
	Last    string    `json:"last,omitempty"`
	LastAt  time.Time `json:"lastAt,omitzero"`
	Problem bool      `json:"problem,omitempty"`
}

// Hooks lists the session's hooks in configuration order, each with its
// last outcome; no IO.
func (r *Runtime) Hooks() []HookView {
	var out []HookView
	for _, l := range r.hooks.engine.List() {
		h := l.Hook
		out = append(out, HookView{Name: h.Name(), Event: string(h.Event), Matcher: h.Matcher, Command: h.Command,
			Timeout: h.EffectiveTimeout(), Source: h.Source, Last: l.Last.Text, LastAt: l.Last.At, Problem: l.Last.Problem})
	}
	return out
}

// Hooks lists the current session's hooks (Runtime.Hooks).
func (c *currentSession) Hooks() []HookView { return c.current().Hooks() }
