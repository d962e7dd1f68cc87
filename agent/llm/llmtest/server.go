package llmtest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// pieceSizes are the irregular sizes a stream is cut into when served in
// pieces, cycled.
var pieceSizes = []int{1, 7, 3, 13, 2, 29, 5, 64, 11}

// WriteSSE writes body as an event stream, whole or in small irregular
// pieces with a flush after each.
func WriteSSE(w http.ResponseWriter, body []byte, pieces bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f := w.(http.Flusher)
	if !pieces {
		_, _ = w.Write(body)
		f.Flush()
		return
	}
	for i := 0; len(body) > 0; i++ {
		n := min(pieceSizes[i%len(pieceSizes)], len(body))
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		f.Flush()
		body = body[n:]
	}
}

// SSEServer serves body as an event stream to every request, closed when
// the test ends.
func SSEServer(t testing.TB, body []byte, pieces bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		WriteSSE(w, body, pieces)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// droppingServer sends body as a chunked event stream, then closes the
// connection without the chunk that ends the body: the client reads body,
// then an unexpected EOF.
func droppingServer(t testing.TB, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(body), body)
		_ = buf.Flush()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// StatusServer answers every request with status and body.
func StatusServer(t testing.TB, status int, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// StallingServer sends head as an event stream (or, with beforeHeaders,
// nothing at all), then waits until the client goes away, which it reports
// by closing the returned channel.
func StallingServer(t testing.TB, head string, beforeHeaders bool) (*httptest.Server, <-chan struct{}) {
	gone, stop := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the request first: the server notices a client going away
		// only once it reads the connection again.
		_, _ = io.Copy(io.Discard, r.Body)
		if !beforeHeaders {
			WriteSSE(w, []byte(head), false)
		}
		select {
		case <-r.Context().Done():
			once.Do(func() { close(gone) })
		case <-stop: // the test failed; let Close return
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs before srv.Close
	return srv, gone
}

// CaptureServer answers every request with body as an event stream and
// returns a func that gives the last request's body.
func CaptureServer(t testing.TB, body string) (*httptest.Server, func() []byte) {
	var mu sync.Mutex
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = b
		mu.Unlock()
		WriteSSE(w, []byte(body), false)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []byte {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// BodyTransport answers every request with Status and Body as an event
// stream, without a network, for fuzz targets.
type BodyTransport struct {
	Status int
	Body   []byte
}

// RoundTrip reads and closes the request and returns the canned response.
func (b BodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, req.Body)
	_ = req.Body.Close()
	return &http.Response{
		StatusCode: b.Status,
		Header:     http.Header{"Content-Type": []string{"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(b.Body)),
		Request:    req,
	}, nil
}
