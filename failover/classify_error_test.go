package failover

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestClassifyError(t *testing.T) {
	wrap := func(err error) error {
		return &url.Error{Op: "Post", URL: "https://api.example.com/v1", Err: err}
	}
	for _, c := range []struct {
		name string
		perr *agent.ProviderError
		err  error
		want Reason
	}{
		{"nothing", nil, nil, ReasonUnknown},
		{"deadline", nil, fmt.Errorf("stream: %w", context.DeadlineExceeded), ReasonTimeout},
		{"unknown authority", nil, wrap(x509.UnknownAuthorityError{}), ReasonTLSCertificate},
		{"hostname", nil, wrap(x509.HostnameError{Host: "x"}), ReasonTLSCertificate},
		{"reset", nil, wrap(&os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}), ReasonTimeout},
		{"refused", nil, wrap(&os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}), ReasonNetwork},
		{"no route", nil, wrap(&net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.EHOSTUNREACH}}), ReasonNetwork},
		{"unreachable", nil, wrap(&os.SyscallError{Syscall: "connect", Err: syscall.ENETUNREACH}), ReasonNetwork},
		{"no such host", nil, wrap(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}}), ReasonNetwork},
		{"dial timed out", nil, wrap(&net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}), ReasonNetwork},
		{"read timed out", nil, wrap(&net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}), ReasonTimeout},
		{"cut mid-stream", nil, fmt.Errorf("reading body: %w", io.ErrUnexpectedEOF), ReasonTimeout},
		{"plain error text", nil, errors.New("429 Too Many Requests"), ReasonRateLimit},
		{"idle watchdog", &agent.ProviderError{Kind: agent.ErrorTimeout,
			Message: "no data from openai for 1m0s (idle timeout)"}, nil, ReasonTimeout},
		{"empty answer", &agent.ProviderError{Kind: agent.ErrorEmpty,
			Message: "anthropic sent a response without any content"}, nil, ReasonEmptyResponse},
		{"network kind", &agent.ProviderError{Kind: agent.ErrorNetwork,
			Message: "openai: dial tcp: lookup api.openai.com"}, nil, ReasonNetwork},
		{"network kind cut mid-stream", &agent.ProviderError{Kind: agent.ErrorNetwork,
			Message: "openai: read tcp 127.0.0.1:50000->127.0.0.1:8080: read: connection reset by peer"}, nil, ReasonTimeout},
		{"network kind without words", &agent.ProviderError{Kind: agent.ErrorNetwork,
			Message: "openai: something odd"}, nil, ReasonTimeout},
		{"not an event stream", &agent.ProviderError{Kind: agent.ErrorMalformed, Status: 200,
			Message: `the server at http://127.0.0.1:1/v1/chat/completions answered with an HTML page ("502 Bad Gateway"), not an event stream: check baseURL`,
			Body:    "<html><title>502 Bad Gateway</title></html>"}, nil, ReasonMalformed},
		{"network kind with a certificate", &agent.ProviderError{Kind: agent.ErrorNetwork,
			Message: "openai: x509: certificate signed by unknown authority"}, nil, ReasonTLSCertificate},
		{"malformed stream", &agent.ProviderError{Kind: agent.ErrorMalformed,
			Message: "cannot parse the stream from openai: invalid character"}, nil, ReasonServerError},
		{"refusal stop reason", &agent.ProviderError{Kind: agent.ErrorStream, Type: "refusal",
			Message: "anthropic declined to answer (stop_reason refusal)"}, nil, ReasonUnclassified},
		{"content filter finish", &agent.ProviderError{Kind: agent.ErrorStream, Type: "content_filter",
			Message: "openai stopped: content filtered"}, nil, ReasonUnclassified},
		{"context window stop reason", &agent.ProviderError{Kind: agent.ErrorStream, Type: "model_context_window_exceeded",
			Message: "the conversation exceeds the context window of claude (stop_reason model_context_window_exceeded)"}, nil, ReasonContextOverflow},
		{"stream overloaded event", &agent.ProviderError{Kind: agent.ErrorStream, Type: "overloaded_error",
			Message: "Overloaded"}, nil, ReasonOverloaded},
		{"a stream error about the provider's upstream", &agent.ProviderError{Kind: agent.ErrorStream,
			Message: "upstream: dial tcp 10.0.0.5:8000: connect: connection refused"}, nil, ReasonServerError},
		{"stream without words", &agent.ProviderError{Kind: agent.ErrorStream,
			Message: "the provider reported an error mid-stream"}, nil, ReasonNoErrorDetails},
		{"http 400 empty body", &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 400,
			Message: "Bad Request"}, nil, ReasonUnknown},
		{"http 503 empty body", &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 503,
			Message: "Service Unavailable"}, nil, ReasonOverloaded},
		{"http 429 billing code", &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429,
			Type: "insufficient_quota", Code: "insufficient_quota",
			Message: "You exceeded your current quota, please check your plan and billing details."}, nil, ReasonBilling},
		{"http 400 context code", &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 400,
			Type: "invalid_request_error", Code: "context_length_exceeded",
			Message: "Input tokens exceed the configured limit of 272000 tokens."}, nil, ReasonContextOverflow},
		{"http 400 type only", &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 400,
			Type: "invalid_request_error", Message: "Bad Request"}, nil, ReasonFormat},
		{"http status outranks the transport", &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429,
			Message: "Too Many Requests"}, context.DeadlineExceeded, ReasonRateLimit},
		{"transport outranks a statusless stream error", &agent.ProviderError{Kind: agent.ErrorStream,
			Message: "boom"}, io.ErrUnexpectedEOF, ReasonTimeout},
	} {
		if got := ClassifyError(c.perr, c.err); got != c.want {
			t.Errorf("%s: ClassifyError = %v, want %v", c.name, got, c.want)
		}
	}
}
