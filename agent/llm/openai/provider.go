package openai

import (
	"context"
	"net/http"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// DefaultBaseURL is OpenAI's own endpoint, used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// Config configures a Provider. Only BaseURL and APIKey matter to most users.
type Config struct {
	// BaseURL is the API root that /chat/completions is appended to, such as
	// https://openrouter.ai/api/v1 or http://localhost:11434/v1; empty means
	// DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none (local servers).
	// StreamOptions.APIKey overrides it per request.
	APIKey string
	// IdleTimeout is how long a stream may go without progress (keep-alive
	// comments and empty chunks do not count); 0 means
	// llmhttp.DefaultIdleTimeout(BaseURL).
	IdleTimeout time.Duration
	// FirstProgressTimeout is how long a stream may wait for its first
	// progress (time to first token); 0 means IdleTimeout.
	FirstProgressTimeout time.Duration
	// HTTPClient makes the requests; nil means llmhttp.NewClient with the idle
	// timeout as its response-header timeout. Never set its Timeout: it would
	// cut long streams off.
	HTTPClient *http.Client
	// Headers are added to every request (OpenRouter's HTTP-Referer, say).
	Headers map[string]string
	// Now stamps the assistant messages; nil means time.Now.
	Now func() time.Time
	// Clock runs the idle watchdog; nil means llmhttp.RealClock. Tests set
	// a fake one.
	Clock llmhttp.Clock
}

// Provider streams Chat Completions from one server. Its Stream method is an
// agent.StreamFn; it is safe for concurrent use.
type Provider struct {
	svc      sdk.ChatCompletionService
	apiKey   string
	windows  llmhttp.Windows
	clock    llmhttp.Clock
	now      func() time.Time
	official bool // api.openai.com: max_completion_tokens, prompt_cache_key
}

// New checks cfg and returns a provider. It fails on a base URL that is not
// http(s) and on an HTTPClient with a Timeout; the error never contains the
// key.
func New(cfg Config) (*Provider, error) {
	t, err := llmhttp.NewTransport(llmhttp.TransportConfig{
		Provider: "openai", BaseURL: cfg.BaseURL, DefaultBaseURL: DefaultBaseURL,
		IdleTimeout: cfg.IdleTimeout, FirstProgressTimeout: cfg.FirstProgressTimeout,
		HTTPClient: cfg.HTTPClient, Now: cfg.Now, Clock: cfg.Clock, Headers: cfg.Headers,
	})
	if err != nil {
		return nil, err
	}
	// NewChatCompletionService, unlike NewClient, reads nothing from the
	// environment: no OPENAI_API_KEY, OPENAI_BASE_URL or custom headers.
	opts := []option.RequestOption{
		option.WithBaseURL(t.BaseURL),
		option.WithHTTPClient(t.Client),
		option.WithMaxRetries(0),
	}
	for _, k := range t.HeaderKeys {
		opts = append(opts, option.WithHeader(k, cfg.Headers[k]))
	}
	return &Provider{
		svc:      sdk.NewChatCompletionService(opts...),
		apiKey:   cfg.APIKey,
		windows:  t.Windows,
		clock:    t.Clock,
		now:      t.Now,
		official: strings.EqualFold(t.URL.Hostname(), "api.openai.com"),
	}, nil
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
	llmhttp.Stream(ctx, w, llmhttp.Request[*completionChunk]{
		Provider: llmhttp.ProviderName(model, "openai"),
		Windows:  p.windows,
		Clock:    p.clock,
		Secrets:  []string{key, p.apiKey},
		Open: func(x *llmhttp.Exchange) (llmhttp.SDKStream[*completionChunk], error) {
			params, err := buildParams(model, llm, opts, p.official)
			if err != nil {
				return nil, err
			}
			var resp *http.Response // the body is decoded by chunkStream, not the SDK
			reqOpts := []option.RequestOption{option.WithMiddleware(x.Middleware), option.WithResponseInto(&resp)}
			if key != "" {
				reqOpts = append(reqOpts, option.WithAPIKey(key))
			}
			return newChunkStream(p.svc.NewStreaming(x.Context(), params, reqOpts...), resp), nil
		},
		Handle:  h.chunk,
		End:     h.end,
		Failure: failure,
	})
}
