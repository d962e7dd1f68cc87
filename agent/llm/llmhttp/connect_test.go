package llmhttp

import (
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestConnectFailure(t *testing.T) {
	post := func(err error) error { return &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1", Err: err} }
	dial := func(err error) error { return post(&net.OpError{Op: "dial", Net: "tcp", Err: err}) }
	connect := func(errno syscall.Errno) error { return dial(&os.SyscallError{Syscall: "connect", Err: errno}) }
	cases := []struct {
		name string
		err  error
		hint string // "" when it is not a failure to connect
	}{
		{"refused", connect(syscall.ECONNREFUSED), "nothing is listening there"},
		{"no such host", dial(&net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}), "the host name does not resolve"},
		{"resolver down", dial(&net.DNSError{Err: "server misbehaving", Name: "x.invalid", IsTemporary: true}), "the host name could not be resolved"},
		{"no route", connect(syscall.EHOSTUNREACH), "the network cannot reach the host"},
		{"network unreachable", connect(syscall.ENETUNREACH), "the network cannot reach the host"},
		{"dial timed out", dial(os.ErrDeadlineExceeded), "the connection timed out"},
		{"proxy refused", post(&net.OpError{Op: "proxyconnect", Net: "tcp", Err: &net.OpError{Op: "dial", Net: "tcp",
			Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}}), "the proxy cannot be reached"},
		{"another dial failure", dial(errors.New("socket: too many open files")), connectHint},
		{"reset mid-stream", post(&net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}), ""},
		{"cut mid-stream", errors.New("unexpected EOF"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := transportError("openai", c.err)
			if c.hint == "" {
				if strings.Contains(e.Message, "could not connect") {
					t.Fatalf("%q reads as a failure to connect", e.Message)
				}
				return
			}
			if e.Kind != agent.ErrorNetwork || !strings.HasPrefix(e.Message, "could not connect to openai: "+c.err.Error()) ||
				!strings.Contains(e.Message, c.hint) {
				t.Errorf("error %s %q, want network with %q", e.Kind, e.Message, c.hint)
			}
		})
	}
}
