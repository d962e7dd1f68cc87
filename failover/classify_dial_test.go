package failover

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRealDialErrors classifies the errors Go itself returns for a
// connection that cannot be made — a closed loopback port and a host under
// .invalid, which never resolves (RFC 6761) — both as the Go error chain and
// as the text the providers keep of it: network, never timeout. Without DNS
// here the lookup fails another way (a misbehaving or unreachable
// resolver); it is still a failure to connect.
func TestRealDialErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1/chat/completions"
	ln.Close()
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	for _, c := range []struct{ name, url, says string }{
		{"closed port", closed, "connection refused"},
		{"invalid host", "http://nonexistent.invalid/v1/chat/completions", "lookup nonexistent.invalid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader("{}"))
			resp, err := client.Do(req)
			if err == nil {
				resp.Body.Close()
				t.Skipf("%s answered here", c.url)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Fatalf("error %q does not say %q", err, c.says)
			}
			if got := ClassifyError(nil, err); got != ReasonNetwork {
				t.Errorf("ClassifyError(%q) = %s, want network", err, got)
			}
			if got := Classify(0, "openai: "+err.Error()); got != ReasonNetwork {
				t.Errorf("Classify(%q) = %s, want network", err, got)
			}
		})
	}
}
