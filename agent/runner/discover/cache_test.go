package discover

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func TestDue(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		at      time.Time
		running bool
		want    bool
	}{
		{"never listed", time.Time{}, false, true},
		{"never listed, one under way", time.Time{}, true, false},
		{"fresh", now.Add(-time.Minute), false, false},
		{"stale", now.Add(-DefaultMaxAge), false, true},
		{"stale, one under way", now.Add(-time.Hour), true, false},
	}
	for _, tt := range tests {
		if got := due(tt.at, tt.running, now, DefaultMaxAge); got != tt.want {
			t.Errorf("%s: due = %v", tt.name, got)
		}
	}
}

func TestReport(t *testing.T) {
	tests := []struct{ down, failed, want bool }{
		{false, false, false}, // up, still up
		{false, true, true},   // the outage begins: tell
		{true, true, false},   // still down: told already
		{true, false, true},   // back: tell
	}
	for _, tt := range tests {
		if got := report(tt.down, tt.failed); got != tt.want {
			t.Errorf("report(down %v, failed %v) = %v", tt.down, tt.failed, got)
		}
	}
}

// switchable is an OpenAI-compatible server whose /v1/models can be made to
// fail, counting what it is asked.
type switchable struct {
	srv   *httptest.Server
	down  atomic.Bool
	asked atomic.Int32
}

func newSwitchable(t *testing.T, body string) *switchable {
	s := &switchable{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		s.asked.Add(1)
		if s.down.Load() {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// changes records what the watchers are told.
type changes struct {
	mu  sync.Mutex
	got []Change
}

func (c *changes) watch(ch Change) { c.mu.Lock(); c.got = append(c.got, ch); c.mu.Unlock() }

func (c *changes) take() []Change {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.got
	c.got = nil
	return out
}

// An outage is reported once, however often the server is asked during it,
// and its end once; the models go with it and come back with the server.
func TestCacheReportsAnOutageOnce(t *testing.T) {
	s := newSwitchable(t, `{"data": [{"id": "m1", "max_model_len": 8192}, {"id": "m2"}]}`)
	c := NewCache([]Server{{Provider: "lab", BaseURL: s.srv.URL + "/v1", Describe: func(id string) agent.Model {
		return agent.Model{Provider: "lab", ID: id, API: "openai-chat", BaseURL: "described", ContextWindow: 1000}
	}}}, Options{})
	defer c.Close()
	var seen changes
	defer c.Watch(seen.watch)()
	steps := []struct {
		down       bool
		wantModels int
		wantReport bool
	}{
		{false, 2, false}, // the first listing is no news
		{false, 2, false},
		{true, 0, true},
		{true, 0, false},
		{true, 0, false},
		{false, 2, true},
		{false, 2, false},
		{true, 0, true},
	}
	for i, st := range steps {
		s.down.Store(st.down)
		c.Refresh(context.Background())
		got := seen.take()
		if len(got) != 1 {
			t.Fatalf("step %d: %d changes told, want 1", i, len(got))
		}
		ch := got[0]
		if len(ch.Models) != st.wantModels || ch.Report != st.wantReport || (ch.Err != nil) != st.down || ch.Provider != "lab" {
			t.Errorf("step %d: change %+v; want %d models, report %v", i, ch, st.wantModels, st.wantReport)
		}
		if n := len(c.Listed("lab")); n != st.wantModels {
			t.Errorf("step %d: %d models listed, want %d", i, n, st.wantModels)
		}
	}
	s.down.Store(false)
	c.Refresh(context.Background())
	listed := c.Listed("lab")
	// What the server says of the model wins over what was described.
	if m := listed[0]; m.ID != "m1" || m.ContextWindow != 8192 || m.API != "openai-chat" || m.BaseURL != "described" {
		t.Errorf("first model %+v", m)
	}
	if m := listed[1]; m.ContextWindow != 1000 {
		t.Errorf("second model %+v: the description's window is lost", m)
	}
	if errCh := seen.take(); len(errCh) != 1 {
		t.Fatalf("%d changes", len(errCh))
	}
}

// A read never lists; RefreshStale starts, in the background, the listings
// never made or older than MaxAge, which a Refresh joins rather than
// repeats.
func TestRefreshStale(t *testing.T) {
	s := newSwitchable(t, `{"data": [{"id": "m1"}]}`)
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	c := NewCache([]Server{{Provider: "lab", BaseURL: s.srv.URL + "/v1"}},
		Options{MaxAge: time.Minute, Now: func() time.Time { return time.Unix(0, now.Load()) }})
	defer c.Close()
	if got := c.Listed("lab"); got != nil {
		t.Fatalf("listed before any listing: %v", got)
	}
	c.RefreshStale()
	c.Refresh(context.Background()) // joins the listing RefreshStale started
	if n := s.asked.Load(); n != 1 {
		t.Fatalf("asked %d times, want 1", n)
	}
	if got := c.Listed("lab"); len(got) != 1 || got[0].Provider != "lab" || got[0].BaseURL != s.srv.URL+"/v1" {
		t.Fatalf("listed %+v", got)
	}
	c.RefreshStale()
	c.Listed("lab")
	if n := s.asked.Load(); n != 1 {
		t.Fatalf("a fresh listing was asked again: %d", n)
	}
	now.Add(int64(time.Minute))
	c.Listed("lab")
	c.RefreshStale()
	c.Refresh(context.Background())
	if n := s.asked.Load(); n != 2 {
		t.Fatalf("asked %d times after MaxAge, want 2", n)
	}
	if c.Listed("other") != nil || c.Discovers("other") || !c.Discovers("lab") {
		t.Error("another provider discovers")
	}
}

// Closing ends a listing under way and drops its outcome: no watcher hears
// of a failure that was only the process quitting.
func TestCloseDropsTheListingUnderWay(t *testing.T) {
	entered := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	c := NewCache([]Server{{Provider: "box", BaseURL: srv.URL + "/v1"}}, Options{Timeout: time.Minute})
	var seen changes
	c.Watch(seen.watch)
	c.RefreshStale()
	<-entered
	c.Close()
	if got := seen.take(); len(got) != 0 {
		t.Errorf("told %+v after Close", got)
	}
	c.Refresh(context.Background()) // returns at once: nothing starts
	if got := c.Listed("box"); got != nil {
		t.Errorf("listed %v", got)
	}
}

// A nil cache discovers nothing and never blocks.
func TestNilCache(t *testing.T) {
	var c *Cache
	c.Refresh(context.Background())
	c.RefreshStale()
	c.Watch(func(Change) {})()
	c.Close()
	if c.Discovers("x") || c.Listed("x") != nil {
		t.Error("a nil cache discovers")
	}
}
