package llmhttp

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"time"
)

// TransportConfig is what an HTTP provider's Config says about how to reach
// its server; zero values take the defaults.
type TransportConfig struct {
	Provider       string // for messages: "openai", "anthropic"
	BaseURL        string // "" → DefaultBaseURL
	DefaultBaseURL string
	IdleTimeout    time.Duration // 0 → DefaultIdleTimeout(base URL)
	// FirstProgressTimeout is the window before the first progress; 0 →
	// the idle window.
	FirstProgressTimeout time.Duration
	HTTPClient           *http.Client // nil → NewClient; must have no Timeout
	Now                  func() time.Time
	Clock                Clock // runs the watchdog; nil → RealClock
	Headers              map[string]string
}

// Transport is a checked TransportConfig with its defaults filled in.
type Transport struct {
	BaseURL string
	URL     *url.URL
	Windows Windows
	Client  *http.Client
	Now     func() time.Time
	Clock   Clock
	// HeaderKeys are the extra headers' names, sorted, so that requests are
	// built the same way every time.
	HeaderKeys []string
}

// NewTransport checks cfg: the base URL must be http(s) (a password in it is
// never echoed) and an HTTPClient must not carry a Timeout, which would cut
// long streams off.
func NewTransport(cfg TransportConfig) (Transport, error) {
	base := cfg.BaseURL
	if base == "" {
		base = cfg.DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Transport{}, fmt.Errorf("%s: base URL %q is not an http(s) URL", cfg.Provider, RedactURL(base))
	}
	t := Transport{BaseURL: base, URL: u, Client: cfg.HTTPClient, Now: cfg.Now, Clock: cfg.Clock,
		Windows: Windows{Idle: cfg.IdleTimeout, First: max(cfg.FirstProgressTimeout, 0)}}
	if t.Windows.Idle <= 0 {
		t.Windows.Idle = DefaultIdleTimeout(base)
	}
	if t.Client != nil && t.Client.Timeout != 0 {
		return Transport{}, errors.New(cfg.Provider + ": HTTPClient.Timeout would cut long streams off; leave it 0 and set IdleTimeout")
	}
	if t.Client == nil {
		// The headers may take as long as the first token: a server that
		// sends them with it must not be cut before the watchdog would.
		t.Client = NewClient(max(t.Windows.Idle, t.Windows.First))
	}
	if t.Now == nil {
		t.Now = time.Now
	}
	if t.Clock == nil {
		t.Clock = RealClock
	}
	for k := range cfg.Headers {
		t.HeaderKeys = append(t.HeaderKeys, k)
	}
	sort.Strings(t.HeaderKeys)
	return t, nil
}
