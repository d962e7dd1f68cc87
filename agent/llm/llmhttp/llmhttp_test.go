package llmhttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func TestDefaultIdleTimeout(t *testing.T) {
	tests := []struct {
		url  string
		want time.Duration
	}{
		{"https://api.openai.com/v1", CloudIdleTimeout},
		{"https://api.anthropic.com", CloudIdleTimeout},
		{"https://openrouter.ai/api/v1", CloudIdleTimeout},
		{"http://localhost:11434/v1", SelfHostedIdleTimeout},
		{"http://LOCALHOST.:8080", SelfHostedIdleTimeout},
		{"http://127.0.0.1:8080/v1", SelfHostedIdleTimeout},
		{"http://[::1]:8080/v1", SelfHostedIdleTimeout},
		{"http://192.168.1.20:1234/v1", SelfHostedIdleTimeout},
		{"http://10.0.0.5/v1", SelfHostedIdleTimeout},
		{"http://172.20.0.3:8000/v1", SelfHostedIdleTimeout},
		{"http://[fd00::5]:8000/v1", SelfHostedIdleTimeout},
		{"http://100.101.102.103:11434", SelfHostedIdleTimeout},
		{"http://169.254.1.1", SelfHostedIdleTimeout},
		{"http://0.0.0.0:8080", SelfHostedIdleTimeout},
		{"http://gpu-box.local:8000/v1", SelfHostedIdleTimeout},
		{"http://host.docker.internal:11434/v1", SelfHostedIdleTimeout},
		{"http://8.8.8.8/v1", CloudIdleTimeout},
		{"http://172.32.0.1/v1", CloudIdleTimeout},
		{"::not a url", CloudIdleTimeout},
		{"", CloudIdleTimeout},
	}
	for _, tt := range tests {
		if got := DefaultIdleTimeout(tt.url); got != tt.want {
			t.Errorf("DefaultIdleTimeout(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

func TestNewClient(t *testing.T) {
	c := NewClient(42 * time.Second)
	if c.Timeout != 0 {
		t.Errorf("Timeout = %v, want none", c.Timeout)
	}
	if tr := c.Transport.(*http.Transport); tr.ResponseHeaderTimeout != 42*time.Second || tr.Proxy == nil {
		t.Errorf("transport = %+v", tr)
	}
}

func TestParseErrorBody(t *testing.T) {
	tests := []struct {
		name, body, typ, code, message string
	}{
		{"openai", `{"error":{"message":"Rate limit","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			"requests", "rate_limit_exceeded", "Rate limit"},
		{"anthropic", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"r"}`,
			"overloaded_error", "", "Overloaded"},
		{"anthropic error code", `{"type":"error","error":{"type":"invalid_request_error","message":"m","details":{"error_code":"credit_balance_too_low"}}}`,
			"invalid_request_error", "credit_balance_too_low", "m"},
		{"openrouter numeric code", `{"error":{"code":402,"message":"Insufficient credits","metadata":{}}}`, "", "402", "Insufficient credits"},
		{"string error", `{"error":"model not found"}`, "", "", "model not found"},
		{"vllm", `{"object":"error","message":"bad","type":"BadRequestError","param":null,"code":400}`, "BadRequestError", "400", "bad"},
		{"fastapi detail", `{"detail":"Not Found"}`, "", "", "Not Found"},
		{"plain text", "upstream connect error\nreset reason: overflow", "", "", "upstream connect error"},
		{"long line", strings.Repeat("é", 300), "", "", strings.Repeat("é", 100) + "…"},
		{"empty", "", "", "", ""},
		{"json without message", `{"ok":false}`, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := ParseErrorBody([]byte(tt.body))
			if e.Type != tt.typ || e.Code != tt.code || e.Message != tt.message || e.Body != tt.body {
				t.Errorf("got %q %q %q %q, want %q %q %q", e.Type, e.Code, e.Message, e.Body, tt.typ, tt.code, tt.message)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	e := Redact(&agent.ProviderError{Message: "bad key sk-abcdefgh1234", Body: `{"key":"sk-abcdefgh1234"}`, Code: "x"},
		"sk-abcdefgh1234", "x", "")
	if strings.Contains(e.Message+e.Body, "sk-abcdefgh1234") || e.Code != "x" {
		t.Errorf("got %+v", e)
	}
}

func TestKeepTail(t *testing.T) {
	x := Start(context.Background(), "p", Windows{Idle: time.Hour}, nil)
	defer x.Stop()
	var all bytes.Buffer
	for i := range 3000 {
		p := []byte(strings.Repeat(string(rune('a'+i%26)), i%7+1))
		all.Write(p)
		x.keepTail(p)
	}
	x.keepTail(bytes.Repeat([]byte("z"), 5000))
	all.Write(bytes.Repeat([]byte("z"), 5000))
	x.keepTail([]byte("end"))
	all.WriteString("end")
	want := all.String()[all.Len()-agent.MaxErrorBody:]
	if got := x.Tail(); got != want {
		t.Errorf("tail (%d bytes) differs from the last %d bytes", len(got), agent.MaxErrorBody)
	}
}

// slowBody returns one byte per read, after a pause.
type slowBody struct{ n int }

func (b *slowBody) Read(p []byte) (int, error) {
	if b.n == 0 {
		return 0, io.EOF
	}
	time.Sleep(20 * time.Millisecond)
	b.n--
	p[0] = 'x'
	return 1, nil
}

func (b *slowBody) Close() error { return nil }

func TestWatchdog(t *testing.T) {
	t.Run("bytes alone do not keep it alive", func(t *testing.T) {
		// Bytes arrive every 20 ms for 300 ms, but no item reaches Stream:
		// keep-alives look like this.
		x := Start(context.Background(), "p", Windows{Idle: 150 * time.Millisecond}, nil)
		defer x.Stop()
		resp, _ := x.Middleware(nil, func(*http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Body: &slowBody{n: 15}}, nil
		})
		// 15 bytes, and the blank line the body lacked.
		if n, err := io.Copy(io.Discard, resp.Body); err != nil || n != 17 {
			t.Fatalf("read %d, %v", n, err)
		}
		if !x.TimedOut() {
			t.Error("the watchdog did not fire on a body that made no progress")
		}
	})
	t.Run("silence fires it", func(t *testing.T) {
		x := Start(context.Background(), "p", Windows{Idle: 50 * time.Millisecond}, nil)
		defer x.Stop()
		<-x.Context().Done()
		if !x.TimedOut() {
			t.Fatal("not reported as a timeout")
		}
		e := x.Failure(context.Canceled)
		if e.Kind != agent.ErrorTimeout || e.Message != "no data from p for 50ms (idle timeout)" {
			t.Errorf("failure = %+v", e)
		}
	})
	t.Run("the caller's cancel is not a timeout", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		x := Start(ctx, "p", Windows{Idle: time.Hour}, nil)
		defer x.Stop()
		cancel()
		if x.TimedOut() {
			t.Error("reported as a timeout")
		}
	})
}

func TestFailure(t *testing.T) {
	x := Start(context.Background(), "p", Windows{Idle: time.Hour}, nil)
	defer x.Stop()
	_, err := x.Middleware(nil, func(*http.Request) (*http.Response, error) {
		return nil, errors.New("dial tcp: connection refused")
	})
	if e := x.Failure(err); e.Kind != agent.ErrorNetwork || !strings.Contains(e.Message, "connection refused") {
		t.Errorf("network failure = %+v", e)
	}

	x2 := Start(context.Background(), "p", Windows{Idle: time.Hour}, nil)
	defer x2.Stop()
	resp, _ := x2.Middleware(nil, func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 429, Body: io.NopCloser(strings.NewReader(`{"error":{"message":"slow down"}}`))}, nil
	})
	if b, _ := io.ReadAll(resp.Body); !strings.Contains(string(b), "slow down") {
		t.Errorf("the SDK no longer sees the error body: %q", b)
	}
	if e := x2.Failure(errors.New("429")); e.Kind != agent.ErrorHTTP || e.Status != 429 || e.Message != "slow down" {
		t.Errorf("http failure = %+v", e)
	}
}
