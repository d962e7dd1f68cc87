package contextguard

import (
	"sync"

	"github.com/steer-tui/steer/agent"
)

// CompactedPlaceholder replaces a tool result the guard removed from a
// request. (seed)
const CompactedPlaceholder = "[compacted: tool output removed to free context]"

// Guard trims what one request sends so that it fits its budget (SPEC §6.2).
// It never changes the stored transcript: what it returns shares every
// message it did not change, and a changed message is a copy.
//
// The runner installs Apply as the kernel's transformContext. A Guard is safe
// for concurrent use; its zero value works but remembers no estimates.
//
// A guard remembers the tool results it cut (keyed like the Estimator's
// cache, with the limit), so that every request sends the same cut message:
// it is not cut again, its size stays cached, and the prompt-cache prefix
// stays byte for byte the same.
type Guard struct {
	est *Estimator

	mu      sync.Mutex
	cut     map[cutKey]agent.Message
	prevCut map[cutKey]agent.Message
}

type cutKey struct {
	msg   messageKey
	limit int
}

// maxRememberedCuts is the size of one generation of remembered cuts.
const maxRememberedCuts = 1 << 10

// NewGuard returns a guard that measures with est (nil: without caching).
// Sharing one Estimator between the guard and other measurements (the
// status meter, Compact) lets them share its cache.
func NewGuard(est *Estimator) *Guard { return &Guard{est: est} }

// Pressure is how a request stands against its budget.
type Pressure struct {
	// Tokens is the estimated size of the request.
	Tokens int
	// Budget is the prompt budget (Budget.PromptTokens); 0 when the window is
	// unknown.
	Budget int
	// Overflow is Tokens − Budget when positive, else 0.
	Overflow int
	// ReducibleChars is how many bytes truncating every tool result to its
	// limit would free.
	ReducibleChars int
	// Route says what would make the request fit.
	Route Route
}

// GuardReport says what Apply did to one request.
type GuardReport struct {
	// Pressure is the request as it came, before the guard.
	Pressure Pressure
	// Truncated counts tool results cut to ToolResultLimit.
	Truncated int
	// Compacted counts tool results replaced by CompactedPlaceholder.
	Compacted int
	// Tokens is the estimated size of what is sent.
	Tokens int
	// Fits is false when even replacing every tool result was not enough:
	// the request goes out anyway, and the provider's overflow error starts
	// the recovery.
	Fits bool
}

// Assess measures llm against b without changing anything.
func (g *Guard) Assess(llm agent.LLMContext, b Budget) Pressure {
	return pressure(g.estimator().Context(llm), b, ReducibleToolResultChars(llm.Messages, ToolResultLimit(b.Window)))
}

func pressure(tokens int, b Budget, reducible int) Pressure {
	p := Pressure{Tokens: tokens, Budget: b.PromptTokens(), ReducibleChars: reducible}
	if b.Known() {
		p.Overflow = max(0, tokens-p.Budget)
	}
	p.Route = RouteFor(p.Overflow, p.ReducibleChars)
	return p
}

// ReducibleToolResultChars is how many bytes cutting every tool result of
// msgs to limit would free.
func ReducibleToolResultChars(msgs []agent.Message, limit int) int {
	n := 0
	for _, m := range msgs {
		if m.Role == agent.RoleToolResult {
			n += max(0, toolResultTextLen(m)-limit)
		}
	}
	return n
}

// Apply returns what to send instead of llm: 1) every tool result over
// ToolResultLimit truncated (TruncateToolResultMessage); 2) if the request
// is still over its budget, the oldest tool results replaced one by one with
// CompactedPlaceholder until it fits. llm and its messages are not modified.
// With an unknown window only step 1 runs.
func (g *Guard) Apply(llm agent.LLMContext, b Budget) (agent.LLMContext, GuardReport) {
	limit := ToolResultLimit(b.Window)
	msgs := llm.Messages
	var out []agent.Message // a copy of msgs, made on the first change
	change := func(i int, m agent.Message) {
		if out == nil {
			out = append([]agent.Message(nil), msgs...)
		}
		out[i] = m
	}

	sizes := make([]int, len(msgs))
	g.estimator().measure(msgs, sizes)
	fixed := estimateFixed(llm)
	rep := GuardReport{Tokens: fixed}
	before, reducible := fixed, 0
	for i, m := range msgs {
		before += sizes[i]
		if m.Role == agent.RoleToolResult {
			reducible += max(0, toolResultTextLen(m)-limit)
			if cut, changed := g.truncate(m, limit); changed {
				change(i, cut)
				sizes[i] = g.estimator().Message(cut)
				rep.Truncated++
			}
		}
		rep.Tokens += sizes[i]
	}
	rep.Pressure = pressure(before, b, reducible)

	budget := b.PromptTokens()
	for i := 0; b.Known() && rep.Tokens > budget && i < len(msgs); i++ {
		if msgs[i].Role != agent.RoleToolResult {
			continue
		}
		placeholder := compactedToolResult(msgs[i])
		if size := EstimateMessage(placeholder); size < sizes[i] {
			change(i, placeholder)
			rep.Tokens -= sizes[i] - size
			rep.Compacted++
		}
	}
	rep.Fits = !b.Known() || rep.Tokens <= budget
	if out != nil {
		llm.Messages = out
	}
	return llm, rep
}

// truncate is TruncateToolResultMessage(m, limit), remembered.
func (g *Guard) truncate(m agent.Message, limit int) (agent.Message, bool) {
	if g == nil || len(m.Content) == 0 || toolResultTextLen(m) <= limit {
		return TruncateToolResultMessage(m, limit)
	}
	k := cutKey{msg: keyOf(m), limit: limit}
	g.mu.Lock()
	cut, ok := g.cut[k]
	g.mu.Unlock()
	if ok {
		return cut, true
	}
	g.mu.Lock()
	cut, ok = g.prevCut[k]
	g.mu.Unlock()
	if !ok {
		var changed bool
		if cut, changed = TruncateToolResultMessage(m, limit); !changed {
			return m, false
		}
	}
	g.mu.Lock()
	if len(g.cut) >= maxRememberedCuts || g.cut == nil {
		g.prevCut, g.cut = g.cut, make(map[cutKey]agent.Message)
	}
	g.cut[k] = cut
	g.mu.Unlock()
	return cut, true
}

// placeholderContent is the content of every replaced tool result. It is
// shared and, like all published content, never modified.
var placeholderContent = []agent.Content{agent.Text(CompactedPlaceholder)}

// compactedToolResult is m with its content replaced by the placeholder.
func compactedToolResult(m agent.Message) agent.Message {
	m.Content = placeholderContent
	return m
}

func (g *Guard) estimator() *Estimator {
	if g == nil {
		return nil
	}
	return g.est
}
