package anthropic

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
)

// NewStream is the stream of a configured provider's endpoint: its row's
// constructor in main's register of APIs (llm.API.New).
func NewStream(e llm.Endpoint) (agent.StreamFn, error) {
	p, err := New(Config{BaseURL: e.BaseURL, APIKey: e.APIKey, IdleTimeout: e.IdleTimeout,
		FirstProgressTimeout: e.FirstProgressTimeout, Headers: e.Headers})
	if err != nil {
		return nil, err
	}
	return p.Stream, nil
}
