// Package llmhttp is the HTTP plumbing the real provider packages share: the
// idle window a base URL gets, the client they default to, and an Exchange
// that watches one streaming request (the idle watchdog) and keeps what error
// reporting needs (status, error body, the tail of the stream), and Stream,
// the loop that runs one such request on a provider's goroutine.
//
// A stream never runs under http.Client.Timeout, which would cut a long but
// healthy answer off: the client bounds only the wait for response headers,
// and the Exchange's watchdog cancels the request when nothing that carries
// progress has arrived for the idle window (keep-alive comments, pings and
// empty chunks do not count), or before the first progress for the
// first-progress window. The failure is a timeout error that keeps the
// response's headers.
package llmhttp

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
)

// The idle windows: how long a stream may go without progress (keep-alives
// do not count) before the watchdog cancels it. Self-hosted servers get
// longer because a local model may take minutes to process a long prompt
// before its first token. (seed)
const (
	CloudIdleTimeout      = 120 * time.Second
	SelfHostedIdleTimeout = 300 * time.Second
)

// cgnat is the carrier-grade NAT range that Tailscale and similar overlays
// hand out; a server there is the user's own machine.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// selfHostedSuffixes are host-name suffixes that only resolve on a private
// network.
var selfHostedSuffixes = []string{".localhost", ".local", ".internal", ".lan", ".home.arpa"}

// DefaultIdleTimeout is the idle window for a provider at baseURL:
// SelfHostedIdleTimeout when IsSelfHosted says so, else CloudIdleTimeout.
func DefaultIdleTimeout(baseURL string) time.Duration {
	if IsSelfHosted(baseURL) {
		return SelfHostedIdleTimeout
	}
	return CloudIdleTimeout
}

// IsSelfHosted reports whether baseURL points at the user's own network:
// localhost, a loopback, private, link-local, unspecified or CGNAT address, or
// a host name under .localhost, .local, .internal, .lan or .home.arpa. A URL
// that does not parse counts as cloud.
func IsSelfHosted(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "" {
		return false
	}
	if host == "localhost" {
		return true
	}
	for _, s := range selfHostedSuffixes {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() {
		return true
	}
	addr, ok := netip.AddrFromSlice(ip)
	return ok && cgnat.Contains(addr.Unmap())
}

// NewClient returns the client a provider uses when it is given none: the
// default transport's settings (proxy from the environment, HTTP/2, keep-alive)
// with ResponseHeaderTimeout set, and no Client.Timeout.
func NewClient(responseHeaderTimeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = responseHeaderTimeout
	return &http.Client{Transport: t}
}

// RedactURL hides a password in a URL's user info; a URL that does not parse
// is not shown at all.
func RedactURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return "(unparseable)"
}

// ProviderName names the server in messages: the model's provider, or
// fallback.
func ProviderName(m agent.Model, fallback string) string {
	if m.Provider != "" {
		return m.Provider
	}
	return fallback
}
