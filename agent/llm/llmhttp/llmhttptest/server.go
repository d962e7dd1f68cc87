package llmhttptest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TickedServer serves one streaming response paced by the test: its head at
// once, then the next piece each time the test calls Tick, until the client
// goes. With a fake Clock this plays a server that sends something every
// second (a ping, a delta) for minutes of fake time.
type TickedServer struct {
	*httptest.Server
	ticks    chan struct{}
	gone     chan struct{}
	goneOnce sync.Once
}

// NewTickedServer starts a server that writes head, then piece(i) on the
// i-th Tick (from 1), as an event stream; it is closed when the test ends.
func NewTickedServer(t testing.TB, head string, piece func(i int) string) *TickedServer {
	s := &TickedServer{ticks: make(chan struct{}), gone: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer s.goneOnce.Do(func() { close(s.gone) })
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		if !write(w, head) {
			return
		}
		for i := 1; ; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-s.ticks:
				if !write(w, piece(i)) {
					return
				}
			}
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func write(w http.ResponseWriter, s string) bool {
	if _, err := io.WriteString(w, s); err != nil {
		return false
	}
	w.(http.Flusher).Flush()
	return true
}

// Tick has the server write its next piece; it reports false once the
// request has ended.
func (s *TickedServer) Tick() bool {
	select {
	case s.ticks <- struct{}{}:
		return true
	case <-s.gone:
		return false
	}
}

// Gone is closed once the server has seen the request end.
func (s *TickedServer) Gone() <-chan struct{} { return s.gone }
