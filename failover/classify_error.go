package failover

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"

	"github.com/steer-tui/steer/agent"
)

// ClassifyError names why a provider attempt failed from the kernel's
// structured error and the Go error that ended the request; either may be
// nil. The error chain is read first for what only it knows for sure — an
// unverifiable certificate, a connection that could not be made, a deadline,
// a reset, a body cut off mid-stream — then the kernel's error kind (an idle
// or deadline timeout, an empty answer), then Classify over the status, the
// provider's message, body, type and code.
func ClassifyError(perr *agent.ProviderError, err error) Reason {
	chain, fromChain := classifyChain(err)
	if perr == nil {
		switch {
		case fromChain:
			return chain
		case err == nil:
			return ReasonUnknown
		}
		return Classify(0, err.Error())
	}
	// A status is the provider's own answer: it outranks what the
	// transport saw. Without one, a certain transport fact decides.
	if fromChain && perr.Status == 0 {
		return chain
	}
	switch perr.Kind {
	case agent.ErrorTimeout:
		return ReasonTimeout
	case agent.ErrorEmpty:
		return ReasonEmptyResponse
	}
	r := classify(perr.Status, providerText(perr), []string{perr.Type, perr.Code})
	switch perr.Kind {
	case agent.ErrorStream:
		// The provider itself says it could not connect: to its upstream,
		// since it is talking to us.
		if r == ReasonNetwork {
			return ReasonServerError
		}
	case agent.ErrorNetwork:
		// A transport failure is a timeout unless its text knows better
		// (a refused connection, a certificate, a refused key at a proxy).
		if r == ReasonUnknown || r == ReasonUnclassified || r == ReasonNoErrorDetails {
			return ReasonTimeout
		}
	case agent.ErrorMalformed:
		// Data that could not be parsed came from the provider's side.
		if r == ReasonUnknown || r == ReasonUnclassified || r == ReasonNoErrorDetails {
			return ReasonServerError
		}
	}
	return r
}

// providerText joins what the provider said, once each: the message, the
// body (when it adds to the message) and the type and code. A message that
// is only the status's name, put there by the kernel for an empty body,
// does not count as text.
func providerText(perr *agent.ProviderError) string {
	var parts []string
	msg := strings.TrimSpace(perr.Message)
	if perr.Status != 0 && strings.EqualFold(msg, http.StatusText(perr.Status)) && perr.Body == "" {
		msg = ""
	}
	if msg != "" {
		parts = append(parts, msg)
	}
	if body := strings.TrimSpace(perr.Body); body != "" && !strings.Contains(msg, body) {
		parts = append(parts, body)
	}
	for _, s := range []string{perr.Type, perr.Code} {
		if s = strings.TrimSpace(s); s != "" && !strings.Contains(strings.Join(parts, " "), s) {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// classifyChain is the reason the Go error chain proves, if any: an
// unverifiable certificate; a connection that could not be made (refused,
// unreachable, a host name that does not resolve, any failure while dialing
// — a dial that timed out never reached the provider either); then a
// deadline, a reset or a body cut off mid-stream, which are timeouts.
func classifyChain(err error) (Reason, bool) {
	if err == nil {
		return ReasonUnknown, false
	}
	var (
		unknownAuthority x509.UnknownAuthorityError
		invalidCert      x509.CertificateInvalidError
		hostname         x509.HostnameError
		roots            x509.SystemRootsError
		verify           *tls.CertificateVerificationError
		recordHeader     tls.RecordHeaderError
		netErr           net.Error
		dnsErr           *net.DNSError
		opErr            *net.OpError
	)
	switch {
	case errors.As(err, &unknownAuthority), errors.As(err, &invalidCert),
		errors.As(err, &hostname), errors.As(err, &roots), errors.As(err, &verify):
		return ReasonTLSCertificate, true
	case errors.As(err, &dnsErr),
		errors.As(err, &opErr) && slices.Contains(dialOps, opErr.Op),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENETUNREACH),
		errors.Is(err, syscall.EHOSTUNREACH):
		return ReasonNetwork, true
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ETIMEDOUT),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.As(err, &recordHeader):
		return ReasonTimeout, true
	case errors.As(err, &netErr) && netErr.Timeout():
		return ReasonTimeout, true
	}
	return ReasonUnknown, false
}

// dialOps are the net.OpError operations of making a connection: through
// them nothing was sent yet.
var dialOps = []string{"dial", "proxyconnect"}
