package scripted

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// DefaultPace is the pace an interactive session wants: 60 chunks a second.
const DefaultPace = 60

// DefaultIdleTimeout is the idle window when Options.IdleTimeout is 0: how
// long a response may go without progress before it fails with a timeout,
// as a real provider's watchdog would end it. It is far shorter than a cloud
// provider's (llmhttp.CloudIdleTimeout) so that a rehearsal of a silent
// provider (the idle-hang scenario) ends in seconds.
const DefaultIdleTimeout = 5 * time.Second

// DefaultChunkSize is the number of runes per text chunk when
// Options.ChunkSize is 0: small enough that text visibly streams.
const DefaultChunkSize = 4

// Options configure a Provider. The zero value streams the default behaviour
// as fast as possible, which suits tests and headless runs; the TUI sets Pace
// to DefaultPace.
type Options struct {
	// Pace is the number of chunks (text, thinking or tool-argument pieces)
	// streamed per second; 0 streams as fast as possible. A scenario step's
	// own pace overrides it.
	Pace float64
	// ChunkSize is the number of runes per text or thinking chunk; 0 means
	// DefaultChunkSize.
	ChunkSize int
	// IdleTimeout is the idle watchdog's window: a response that makes no
	// progress (no content, tool-call piece or end) for that long fails with
	// the timeout error the HTTP providers give (llmhttp.IdleError). The wait
	// between paced chunks counts as silence. 0 means DefaultIdleTimeout; a
	// scenario step's idleTimeoutMs overrides it.
	IdleTimeout time.Duration
	// FirstProgressTimeout is the watchdog's window before the first
	// progress; 0 means the idle window.
	FirstProgressTimeout time.Duration
	// Clock runs the idle watchdog; nil means real time. Tests set a fake
	// one, with Sleep on the same clock.
	Clock llmhttp.Clock
	// Scenario scripts the responses; nil answers every request with the
	// default behaviour. New copies its list of steps.
	Scenario *Scenario
	// Now stamps the assistant messages; it defaults to time.Now.
	Now func() time.Time
	// Sleep waits d between chunks, returning ctx's error if ctx is done
	// first; it defaults to a timer that selects on ctx.Done(). Tests inject
	// a fake to observe the pacing.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultOptions returns the options of an interactive session: DefaultPace,
// DefaultChunkSize and DefaultIdleTimeout, no scenario.
func DefaultOptions() Options {
	return Options{Pace: DefaultPace, ChunkSize: DefaultChunkSize, IdleTimeout: DefaultIdleTimeout}
}

// Provider is the scripted, offline LLM. Its Stream method is an
// agent.StreamFn; it is safe for concurrent use, several requests sharing
// one scenario in the order they ask for steps.
type Provider struct {
	opts   Options
	player *player
	prefix string // makes tool-call ids unique across providers and restarts
	calls  atomic.Int64
}

// New returns a provider; opts.Scenario, if any, should have passed Validate
// (LoadScenario and ParseScenario do that): a step that cannot be played
// fails its request with a malformed error.
func New(opts Options) *Provider {
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = DefaultChunkSize
	}
	if opts.Pace < 0 {
		opts.Pace = 0
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = agent.Sleep
	}
	return &Provider{
		opts:   opts,
		player: newPlayer(opts.Scenario),
		prefix: fmt.Sprintf("%06x", rand.Uint32()&0xffffff),
	}
}

// Stream answers one request; it is the provider's agent.StreamFn. It returns
// at once and streams from a goroutine that always ends the stream with done
// or error, recovers from its own panics, and ends promptly with stopReason
// aborted when ctx is cancelled. The caller must drain the stream or Close
// it.
func (p *Provider) Stream(ctx context.Context, model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	stream := agent.NewAssistantStream()
	go p.run(ctx, stream, model, llm, opts)
	return stream
}

func (p *Provider) run(ctx context.Context, stream *agent.AssistantStream, model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) {
	var w *agent.StreamWriter
	defer func() {
		r := recover()
		if w == nil {
			w = agent.NewStreamWriter(ctx, stream, model, time.Time{})
		}
		// Both are no-ops once the response has ended normally.
		if r != nil {
			w.Fail(&agent.ProviderError{Kind: agent.ErrorStream, Message: fmt.Sprintf("scripted provider panicked: %v", r)})
		}
		w.Fail(&agent.ProviderError{Kind: agent.ErrorStream, Message: "scripted provider ended without a result"})
	}()
	w = agent.NewStreamWriter(ctx, stream, model, p.opts.Now())

	req := request{model: model, profile: opts.Profile, contextTokens: estimateContext(llm)}
	var r reply
	if step, n := p.player.next(req); step != nil {
		if err := step.validate(); err != nil {
			w.Fail(&agent.ProviderError{Kind: agent.ErrorMalformed,
				Message: fmt.Sprintf("scenario %s: step %d: %v", p.player.scenario.Name, n, err)})
			return
		}
		r = p.stepReply(step, model, llm, opts)
	} else {
		r = p.defaultReply(model, llm, opts)
	}
	p.play(ctx, w, model, r, req.contextTokens)
}

// stepReply turns a scenario step into the reply to stream.
func (p *Provider) stepReply(s *Step, model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) reply {
	var r reply
	if s.Default {
		r = p.defaultReply(model, llm, opts)
	}
	if s.Thinking != "" || s.Signature != "" {
		r.thinking, r.signature = s.Thinking, s.Signature
	}
	if !s.Default {
		r.text = s.Text
		for _, c := range s.ToolCalls {
			id := c.ID
			if id == "" {
				id = p.newCallID()
			}
			r.calls = append(r.calls, agent.ToolCall(id, c.Name, c.Arguments))
		}
	}
	r.fault, r.pace, r.usage = s.Fault, s.Pace, s.Usage
	if s.Error != nil {
		r.err = *s.Error
	}
	r.idleTimeout = time.Duration(s.IdleTimeoutMS) * time.Millisecond
	r.keepAlive = time.Duration(s.KeepAliveMS) * time.Millisecond
	return r
}

func (p *Provider) newCallID() string {
	return fmt.Sprintf("call_%s_%d", p.prefix, p.calls.Add(1))
}
