package agenttest

import (
	"context"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// StartedAt is stream that closes started when its request n (from 1)
// begins: a test waits for a particular request, such as a compaction's
// summary, before it acts.
func StartedAt(stream agent.StreamFn, n int, started chan<- struct{}) agent.StreamFn {
	var mu sync.Mutex
	count := 0
	return func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		mu.Lock()
		count++
		if count == n {
			close(started)
		}
		mu.Unlock()
		return stream(ctx, m, llm, opts)
	}
}
