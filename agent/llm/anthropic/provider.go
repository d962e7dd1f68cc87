package anthropic

import (
	"context"
	"net/http"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// DefaultBaseURL is Anthropic's endpoint, used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.anthropic.com"

// Config configures a Provider. Only APIKey matters to most users.
type Config struct {
	// BaseURL is the API root that /v1/messages is appended to; empty means
	// DefaultBaseURL.
	BaseURL string
	// APIKey authenticates the requests; StreamOptions.APIKey overrides it per
	// request.
	APIKey string
	// IdleTimeout is how long a stream may go without progress (pings and
	// events of unknown kinds do not count); 0 means
	// llmhttp.DefaultIdleTimeout(BaseURL).
	IdleTimeout time.Duration
	// FirstProgressTimeout is how long a stream may wait for its first
	// progress (time to first token); 0 means IdleTimeout.
	FirstProgressTimeout time.Duration
	// HTTPClient makes the requests; nil means llmhttp.NewClient with the idle
	// timeout as its response-header timeout. Never set its Timeout: it would
	// cut long streams off.
	HTTPClient *http.Client
	// Headers are added to every request (an anthropic-beta flag, say).
	Headers map[string]string
	// Now stamps the assistant messages; nil means time.Now.
	Now func() time.Time
	// Clock runs the idle watchdog; nil means llmhttp.RealClock. Tests set
	// a fake one.
	Clock llmhttp.Clock
}

// Provider streams Messages responses. Its Stream method is an
// agent.StreamFn; it is safe for concurrent use.
type Provider struct {
	svc     sdk.MessageService
	apiKey  string
	windows llmhttp.Windows
	clock   llmhttp.Clock
	now     func() time.Time
}

// New checks cfg and returns a provider. It fails on a base URL that is not
// http(s) and on an HTTPClient with a Timeout; the error never contains the
// key.
func New(cfg Config) (*Provider, error) {
	t, err := llmhttp.NewTransport(llmhttp.TransportConfig{
		Provider: "anthropic", BaseURL: cfg.BaseURL, DefaultBaseURL: DefaultBaseURL,
		IdleTimeout: cfg.IdleTimeout, FirstProgressTimeout: cfg.FirstProgressTimeout,
		HTTPClient: cfg.HTTPClient, Now: cfg.Now, Clock: cfg.Clock, Headers: cfg.Headers,
	})
	if err != nil {
		return nil, err
	}
	opts := []option.RequestOption{
		// No ANTHROPIC_API_KEY, auth token, profile or base URL from the
		// environment: the key is set per request, explicitly.
		option.WithoutEnvironmentDefaults(),
		option.WithoutOpenTelemetry(),
		option.WithBaseURL(t.BaseURL),
		option.WithHTTPClient(t.Client),
		option.WithMaxRetries(0),
	}
	for _, k := range t.HeaderKeys {
		opts = append(opts, option.WithHeader(k, cfg.Headers[k]))
	}
	client2 := sdk.NewClient(opts...)
	return &Provider{svc: client2.Messages, apiKey: cfg.APIKey, windows: t.Windows, clock: t.Clock, now: t.Now}, nil
}

// Stream answers one request; it is the provider's agent.StreamFn. It returns
// at once and streams from a goroutine that always ends the stream with done
// or error, recovers from its own panics, and ends promptly with stopReason
// aborted when ctx is cancelled. The caller must drain the stream or Close it.
func (p *Provider) Stream(ctx context.Context, model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	stream := agent.NewAssistantStream()
	go p.run(ctx, stream, model, llm, opts)
	return stream
}

func (p *Provider) run(ctx context.Context, stream *agent.AssistantStream, model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) {
	key := p.apiKey
	if opts.APIKey != "" {
		key = opts.APIKey
	}
	w := agent.NewStreamWriter(ctx, stream, model, p.now())
	h := newHandler(w, model)
	llmhttp.Stream(ctx, w, llmhttp.Request[*messageEvent]{
		Provider: llmhttp.ProviderName(model, "anthropic"),
		Windows:  p.windows,
		Clock:    p.clock,
		Secrets:  []string{key, p.apiKey},
		Open: func(x *llmhttp.Exchange) (llmhttp.SDKStream[*messageEvent], error) {
			params, err := buildParams(model, llm, opts)
			if err != nil {
				return nil, err
			}
			var resp *http.Response // the body is decoded by eventStream, not the SDK
			reqOpts := []option.RequestOption{option.WithMiddleware(x.Middleware), option.WithResponseInto(&resp)}
			if key != "" {
				// The SDK sends the key as a bearer token; Anthropic-compatible
				// proxies often read only x-api-key, so send that too.
				reqOpts = append(reqOpts, option.WithAPIKey(key), option.WithHeader("x-api-key", key))
			}
			return newEventStream(p.svc.NewStreaming(x.Context(), params, reqOpts...), resp), nil
		},
		Handle:  h.event,
		End:     h.end,
		Failure: failure,
	})
}
