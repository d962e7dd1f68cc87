package scripted

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
)

// Streams returns the constructor of the scripted providers' streams, their
// row's in main's register of APIs (llm.API.New): each plays opts, and
// those configured without watchdog windows of their own share one
// Provider, so one scenario's steps are played once across them.
func Streams(opts Options) func(llm.Endpoint) (agent.StreamFn, error) {
	shared := New(opts).Stream
	return func(e llm.Endpoint) (agent.StreamFn, error) {
		if e.IdleTimeout == 0 && e.FirstProgressTimeout == 0 {
			return shared, nil
		}
		own := opts
		own.IdleTimeout, own.FirstProgressTimeout = e.IdleTimeout, e.FirstProgressTimeout
		return New(own).Stream, nil
	}
}
