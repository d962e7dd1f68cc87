package agenttest

import (
	"context"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// Gates is a provider for runs of several sessions at once: each request
// is answered "answer to PROMPT" (PROMPT its last user message), once the
// test opens that prompt's gate. The zero Gates is ready to use.
type Gates struct {
	mu    sync.Mutex
	gates map[string]*latch
	asked map[string]*latch
}

// latch is a channel closed at most once.
type latch struct {
	once sync.Once
	ch   chan struct{}
}

func (l *latch) close() { l.once.Do(func() { close(l.ch) }) }

func get(m *map[string]*latch, key string) *latch {
	if *m == nil {
		*m = map[string]*latch{}
	}
	if (*m)[key] == nil {
		(*m)[key] = &latch{ch: make(chan struct{})}
	}
	return (*m)[key]
}

// Open lets the answers to prompt go.
func (g *Gates) Open(prompt string) {
	g.mu.Lock()
	l := get(&g.gates, prompt)
	g.mu.Unlock()
	l.close()
}

// Asked is closed once a request with prompt has reached the provider.
func (g *Gates) Asked(prompt string) <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return get(&g.asked, prompt).ch
}

// Stream is the provider's agent.StreamFn.
func (g *Gates) Stream(ctx context.Context, model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	prompt := ""
	for _, m := range llm.Messages {
		if m.Role == agent.RoleUser {
			prompt = m.TextContent()
		}
	}
	g.mu.Lock()
	gate, asked := get(&g.gates, prompt), get(&g.asked, prompt)
	g.mu.Unlock()
	asked.close()
	return NewScript(Reply().Wait(gate.ch).Text("answer to "+prompt).Stop(agent.StopReasonStop)).Stream(ctx, model, llm, opts)
}
