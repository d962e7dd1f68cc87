package tools

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// How fetch reaches the network: every address a host resolves to is
// checked before any connection is made (blockedReason), the connection goes
// to the checked address itself, and the dialer checks again the address
// it is about to connect to, so that a name resolving to a public address
// first and a private one next (DNS rebinding) still cannot reach inside.

// The network limits of fetch.
const (
	// fetchTimeout bounds one fetch: connecting, redirects and the body.
	fetchTimeout = 30 * time.Second
	// dialTimeout bounds one connection attempt.
	dialTimeout = 10 * time.Second
	// maxRedirects is how many redirects one fetch follows.
	maxRedirects = 5
	// userAgent names steer to the servers it fetches from.
	userAgent = "steer (fetch tool; +https://github.com/steer-tui/steer)"
)

// blockedNets are the addresses fetch does not connect to unless
// tools.fetch.allowPrivate is set, each with the kind it is called in
// messages; the first that contains an address names it.
var blockedNets = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "private (shared address space)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"}, // and the broadcast address
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/96"), "reserved (IPv4-compatible)"},
	{netip.MustParsePrefix("fc00::/7"), "private"},
	{netip.MustParsePrefix("fec0::/10"), "private (site-local)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// nat64 holds IPv6 addresses that a NAT64 gateway turns into the IPv4
// address of their last four bytes.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// blockedReason is the kind of address a is ("loopback", "private", …) when
// fetch may not connect to it without allowPrivate, "" when it may. An
// IPv4 address written as IPv6 (::ffff:127.0.0.1, or behind NAT64) is
// judged as the IPv4 address it reaches.
func blockedReason(a netip.Addr) string {
	a = a.WithZone("").Unmap() // a prefix never contains an address with a zone
	if nat64.Contains(a) {
		b := a.As16()
		if kind := blockedReason(netip.AddrFrom4([4]byte(b[12:]))); kind != "" {
			return kind + " (through NAT64)"
		}
	}
	for _, n := range blockedNets {
		if n.prefix.Contains(a) {
			return n.kind
		}
	}
	if !a.IsValid() {
		return "invalid"
	}
	return ""
}

// AddressError is a fetch refused before connecting: Host resolves to Addr,
// an address of Kind that only tools.fetch.allowPrivate lets fetch reach.
type AddressError struct {
	Host string
	Addr netip.Addr
	Kind string
}

func (e *AddressError) Error() string {
	where := e.Host + " resolves to " + e.Addr.String() + ", "
	if _, err := netip.ParseAddr(e.Host); err == nil || e.Host == "" {
		where = e.Addr.String() + " is "
	}
	return fmt.Sprintf("refused: %sa %s address; fetch connects only to public addresses unless "+
		"tools.fetch.allowPrivate is true in the config", where, e.Kind)
}

// resolver finds a host's addresses; *net.Resolver is one.
type resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// netGuard dials for fetch, refusing the addresses blockedReason names
// unless allowPrivate.
type netGuard struct {
	allowPrivate bool
	resolve      resolver
	// dial connects to address, an ip:port already checked; the default
	// checks it again just before connecting (recheck).
	dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// newNetGuard is the guard of the real network.
func newNetGuard(allowPrivate bool) netGuard {
	g := netGuard{allowPrivate: allowPrivate, resolve: net.DefaultResolver}
	d := &net.Dialer{Timeout: dialTimeout, Control: g.recheck}
	g.dial = d.DialContext
	return g
}

// check refuses a, an address of host, unless fetch may connect to it.
func (g netGuard) check(host string, a netip.Addr) error {
	if g.allowPrivate {
		return nil
	}
	if kind := blockedReason(a); kind != "" {
		return &AddressError{Host: host, Addr: a.WithZone("").Unmap(), Kind: kind}
	}
	return nil
}

// recheck is the dialer's Control: it runs after the socket is made and
// before it connects, with the address actually dialled.
func (g netGuard) recheck(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("refused: cannot check the address %q before connecting: %w", address, err)
	}
	return g.check(ap.Addr().String(), ap.Addr())
}

// DialContext resolves addr's host, refuses it when any of its addresses is
// blocked, and connects to the checked addresses in turn.
func (g netGuard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := g.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if err := g.check(host, ip); err != nil {
			return nil, err
		}
	}
	var errs []error
	for _, ip := range ips {
		conn, err := g.dial(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// lookup is host's addresses: the address itself when host is one.
func (g netGuard) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	ips, err := g.resolve.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	return ips, nil
}

// RedirectError is a redirect fetch did not follow.
type RedirectError struct{ Msg string }

func (e *RedirectError) Error() string { return e.Msg }

// checkRedirect follows at most maxRedirects redirects, each to http or
// https on the host the call named: the permission rules judged that host
// (WebFetch(domain:…)), so a redirect elsewhere is not followed but named,
// for a call of its own that the rules judge. The guard checks each hop's
// address as it dials.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return &RedirectError{Msg: fmt.Sprintf("stopped after %d redirects (the last to %s)", maxRedirects, req.URL.Redacted())}
	}
	if err := schemeError(req.URL); err != "" {
		return &RedirectError{Msg: "redirected to " + req.URL.Redacted() + ", which fetch does not follow: " + err}
	}
	if first := via[0].URL; !strings.EqualFold(req.URL.Hostname(), first.Hostname()) {
		return &RedirectError{Msg: fmt.Sprintf("redirected to another host: %s; fetch it with a call of its own, "+
			"which the permission rules judge for that host", req.URL.Redacted())}
	}
	return nil
}

// schemeError says why fetch does not read u, "" when it is http or https
// with a host.
func schemeError(u *url.URL) string {
	hostPort := u.Opaque != "" && u.Opaque[0] >= '0' && u.Opaque[0] <= '9' // "localhost:8080/x"
	switch {
	case u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "" && !hostPort:
		return fmt.Sprintf("fetch reads only http and https URLs, not %s:", u.Scheme)
	case u.Scheme == "" || u.Host == "" || hostPort:
		return "not a full URL; give the scheme and the host, e.g. https://example.com/page"
	}
	return ""
}

// newFetchClient is fetch's HTTP client over g. It uses no proxy: through
// one, the address checked would be the proxy's, not the page's.
func newFetchClient(g netGuard) *http.Client {
	return &http.Client{
		Timeout:       fetchTimeout,
		CheckRedirect: checkRedirect,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           g.DialContext,
			ForceAttemptHTTP2:     true,
			TLSHandshakeTimeout:   dialTimeout,
			ResponseHeaderTimeout: fetchTimeout,
			MaxIdleConns:          4,
			IdleConnTimeout:       90 * time.Second,
		},
	}
}
