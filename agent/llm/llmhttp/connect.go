package llmhttp

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"syscall"

	"github.com/steer-tui/steer/agent"
)

// dialOps are the net.OpError operations of making a connection: a failure
// in them means nothing reached the server.
var dialOps = []string{"dial", "proxyconnect"}

// connectRule names one way a connection could not be made, with what the
// user can do about it.
type connectRule struct {
	when func(err error) bool
	hint string
}

// connectRules are tried in order; the first that matches gives the hint.
// The proxy comes first: its refusal is also a refused connection, but the
// address to fix is the proxy's.
var connectRules = []connectRule{
	{func(err error) bool { return hasOp(err, "proxyconnect") },
		"the proxy cannot be reached: check HTTPS_PROXY and HTTP_PROXY"},
	{func(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) },
		"nothing is listening there: check baseURL and that the server is running"},
	{func(err error) bool { d, ok := dnsError(err); return ok && d.IsNotFound },
		"the host name does not resolve: check baseURL"},
	{func(err error) bool { _, ok := dnsError(err); return ok },
		"the host name could not be resolved: check the network and baseURL"},
	{func(err error) bool {
		return errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH)
	}, "the network cannot reach the host: check the network, VPN or proxy"},
	{func(err error) bool { var te interface{ Timeout() bool }; return errors.As(err, &te) && te.Timeout() },
		"the connection timed out: check the network, VPN or proxy and baseURL"},
}

// connectHint is the hint when no rule knows more.
const connectHint = "check baseURL and the network"

// connectFailure reports err as a connection that could not be made, when it
// is one: a failure while dialing (refused, unreachable, a host name that
// does not resolve, a dial that timed out) or reaching the proxy. It is a
// network error, never a timeout, whose message keeps Go's own words (the
// classifier reads them) and says what to check.
func connectFailure(provider string, err error) (*agent.ProviderError, bool) {
	if !slices.ContainsFunc(dialOps, func(op string) bool { return hasOp(err, op) }) {
		if _, dns := dnsError(err); !dns {
			return nil, false
		}
	}
	hint := connectHint
	if i := slices.IndexFunc(connectRules, func(r connectRule) bool { return r.when(err) }); i >= 0 {
		hint = connectRules[i].hint
	}
	return &agent.ProviderError{Kind: agent.ErrorNetwork,
		Message: fmt.Sprintf("could not connect to %s: %v (%s)", provider, err, hint)}, true
}

func hasOp(err error, op string) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == op
}

func dnsError(err error) (*net.DNSError, bool) {
	var d *net.DNSError
	ok := errors.As(err, &d)
	return d, ok
}
