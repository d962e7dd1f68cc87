package llmhttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"testing/iotest"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestBodyEndsWithBlankLine: the body the SDK reads always ends with a blank
// line once it had content, so that the SSE decoder dispatches a final event
// the server did not terminate; a body already terminated is left as it is.
func TestBodyEndsWithBlankLine(t *testing.T) {
	tests := []struct{ body, want string }{
		{"", ""},
		{"data: {}\n\n", "data: {}\n\n"},
		{"data: {}\r\n\r\n", "data: {}\r\n\r\n"},
		{"data: {}\n\r\n", "data: {}\n\r\n"},
		{"event: error\ndata: {}\n", "event: error\ndata: {}\n\n"},
		{"event: error\ndata: {}\r\n", "event: error\ndata: {}\r\n\n"},
		{"event: error\ndata: {}", "event: error\ndata: {}\n\n"},
		{"data: {}\n\ndata: {}", "data: {}\n\ndata: {}\n\n"},
		{"\n", "\n"},
		{"\r", "\r\n\n"},
		{": keep-alive\n", ": keep-alive\n\n"},
	}
	for _, tt := range tests {
		for _, oneByte := range []bool{false, true} {
			x := Start(context.Background(), "p", Windows{Idle: time.Hour}, nil)
			var body io.Reader = &eofBody{data: []byte(tt.body)}
			if oneByte {
				body = iotest.OneByteReader(body)
			}
			resp, _ := x.Middleware(nil, func(*http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Body: io.NopCloser(body)}, nil
			})
			got, err := io.ReadAll(resp.Body)
			if err != nil || string(got) != tt.want {
				t.Errorf("%q (one byte a read %v): read %q, %v; want %q", tt.body, oneByte, got, err, tt.want)
			}
			x.Stop()
		}
	}
}

// TestBodyCutOffEndsWithBlankLine: a body cut off by a read error also gets
// its final event terminated, and the error still follows and is recorded.
func TestBodyCutOffEndsWithBlankLine(t *testing.T) {
	x := Start(context.Background(), "p", Windows{Idle: time.Hour}, nil)
	defer x.Stop()
	cut := io.ErrUnexpectedEOF
	resp, _ := x.Middleware(nil, func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Body: io.NopCloser(&eofBody{data: []byte("data: {}"), err: cut})}, nil
	})
	got, err := io.ReadAll(resp.Body)
	if string(got) != "data: {}\n\n" || !errors.Is(err, cut) {
		t.Fatalf("read %q, %v", got, err)
	}
	if e := x.Failure(errors.New("unexpected end of JSON input")); e.Kind != agent.ErrorNetwork || e.Message != "p: unexpected EOF" {
		t.Errorf("failure = %+v, want the read error", e)
	}
}

// eofBody returns data with its last read, then err (io.EOF when nil).
type eofBody struct {
	data []byte
	err  error
}

func (b *eofBody) Read(p []byte) (int, error) {
	n := copy(p, b.data)
	b.data = b.data[n:]
	if len(b.data) > 0 {
		return n, nil
	}
	if b.err != nil {
		return n, b.err
	}
	return n, io.EOF
}
