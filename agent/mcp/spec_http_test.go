package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// recorder serves the test server over streamable HTTP and records what
// the client sent; requests carrying an expired session id are answered
// 404, with a JSON-RPC error body when jsonBody is set.
type recorder struct {
	inner    http.Handler
	jsonBody bool
	// forgetful answers a session's GET stream 404: each session ends as
	// soon as it began.
	forgetful atomic.Bool

	mu       sync.Mutex
	expired  map[string]bool
	requests []recorded
}

// recorded is one request as the server saw it.
type recorded struct {
	method, session, version, lastEventID string
	body                                  string
	at                                    time.Time
}

func newRecorder(t *testing.T, jsonBody bool) (*recorder, *httptest.Server) {
	srv := mcptest.NewServer(nil)
	r := &recorder{inner: sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil),
		jsonBody: jsonBody, expired: map[string]bool{}}
	ts := httptest.NewServer(r)
	t.Cleanup(ts.Close)
	return r, ts
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	req.Body = io.NopCloser(bytes.NewReader(body))
	sid := req.Header.Get(sessionIDHeader)
	r.mu.Lock()
	r.requests = append(r.requests, recorded{method: req.Method, session: sid, version: req.Header.Get("Mcp-Protocol-Version"),
		lastEventID: req.Header.Get("Last-Event-ID"), body: string(body), at: time.Now()})
	gone := r.expired[sid] || (sid != "" && req.Method == http.MethodGet && r.forgetful.Load())
	r.mu.Unlock()
	switch {
	case gone && r.jsonBody:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"session not found"}}`)
	case gone:
		http.Error(w, "session not found", http.StatusNotFound)
	default:
		r.inner.ServeHTTP(w, req)
	}
}

// expire makes the server forget every session it has given out.
func (r *recorder) expire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.requests {
		if q.session != "" {
			r.expired[q.session] = true
		}
	}
}

// seen are the requests so far.
func (r *recorder) seen() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.requests...)
}

// TestSessionGoneStartsANewOne: a server that answers a session's request
// with 404 has ended the session; steer starts a new one at once (an
// initialize without a session id), not counted as a restart, and the
// call that met the 404 says it did not run.
func TestSessionGoneStartsANewOne(t *testing.T) {
	for _, tt := range []struct {
		name     string
		jsonBody bool
	}{{"bare 404", false}, {"404 with a JSON-RPC error", true}} {
		t.Run(tt.name, func(t *testing.T) {
			rec, ts := newRecorder(t, tt.jsonBody)
			m := started(t, Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 5 * time.Second})
			before := len(rec.seen())
			rec.expire()
			res, err := toolNamed(t, m, "mcp__remote__echo").Execute(context.Background(), "c1", map[string]any{"text": "hi"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || !strings.Contains(res.Content[0].Text, "ended the session (HTTP 404)") {
				t.Fatalf("the call that met the 404: %+v", res)
			}
			waitFor(t, m, "a new session", func() bool {
				return statusOf(t, m, "remote").State == StateReady && newInitialize(rec.seen()[before:])
			})
			if st := statusOf(t, m, "remote"); st.Restarts != 0 {
				t.Errorf("a new session counted as a restart: %+v", st)
			}
			res, err = toolNamed(t, m, "mcp__remote__echo").Execute(context.Background(), "c2", map[string]any{"text": "again"}, nil)
			if err != nil || res.IsError || res.Content[0].Text != "again" {
				t.Fatalf("the call on the new session: %+v, %v", res, err)
			}
		})
	}
}

// TestSessionsEndedAtOnceFail: a server that ends every session as it
// begins is not sent new sessions as fast as steer can make them: after
// maxQuickRenewals the server is failed, with the restart policy of any
// failure, and the error says why.
func TestSessionsEndedAtOnceFail(t *testing.T) {
	rec, ts := newRecorder(t, false)
	rec.forgetful.Store(true)
	m := started(t, Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 5 * time.Second})
	waitFor(t, m, "the failure", func() bool {
		st := statusOf(t, m, "remote")
		return st.State == StateFailed && st.Restarts == MaxRestarts
	})
	if st := statusOf(t, m, "remote"); !strings.Contains(st.Error, "ended 4 sessions in a row") {
		t.Errorf("error %q", st.Error)
	}
	inits := 0
	for _, q := range rec.seen() {
		if strings.Contains(q.body, `"method":"initialize"`) {
			inits++
		}
	}
	if want := (maxQuickRenewals + 1) * (MaxRestarts + 1); inits != want {
		t.Errorf("%d sessions begun, want %d", inits, want)
	}
}

// TestSessionRenewals: the sessions in a row that end quickly, and the
// one that fails the server.
func TestSessionRenewals(t *testing.T) {
	var r sessionRenewals
	for i, c := range []struct {
		lasted time.Duration
		fails  bool
	}{
		{time.Second, false}, {time.Second, false}, {time.Second, false}, {time.Second, true},
		{time.Second, false}, {quickSession, false}, {time.Second, false}, {time.Second, false}, {time.Second, false},
	} {
		if err := r.next(c.lasted); (err != nil) != c.fails {
			t.Errorf("end %d (lasted %s): %v, want a failure %v", i, c.lasted, err, c.fails)
		}
	}
}

// newInitialize reports whether reqs hold an initialize, and it carries
// no session id.
func newInitialize(reqs []recorded) bool {
	for _, q := range reqs {
		if strings.Contains(q.body, `"method":"initialize"`) {
			return q.session == ""
		}
	}
	return false
}

// TestProtocolVersionHeader: every request after initialize carries the
// negotiated protocol version and the session id; a server that answers
// an older version steer knows gets that one in the header, and one that
// answers a version steer does not know is not used.
func TestProtocolVersionHeader(t *testing.T) {
	for _, tt := range []struct {
		name, answer string // the version the server's initialize result names
		wantReady    bool
	}{
		{"as asked", protocolVersion, true},
		{"an older one", "2025-06-18", true},
		{"an unknown one", "1999-01-01", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, _ := newRecorder(t, false)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec.ServeHTTP(&versionRewriter{ResponseWriter: w, to: tt.answer}, r)
			}))
			t.Cleanup(ts.Close)
			m := started(t, Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 5 * time.Second})
			st := statusOf(t, m, "remote")
			if (st.State == StateReady) != tt.wantReady {
				t.Fatalf("status %+v", st)
			}
			if !tt.wantReady {
				if !strings.Contains(st.Error, "unsupported protocol version") {
					t.Errorf("error %q", st.Error)
				}
				return
			}
			if _, err := toolNamed(t, m, "mcp__remote__echo").Execute(context.Background(), "c1", map[string]any{"text": "hi"}, nil); err != nil {
				t.Fatal(err)
			}
			reqs := rec.seen()
			for _, q := range reqs[1:] { // all but initialize
				if q.version != tt.answer || q.session == "" {
					t.Errorf("%s %.40s… carried version %q, session %q", q.method, q.body, q.version, q.session)
				}
			}
		})
	}
}

// versionRewriter writes the server's answers with the protocol version
// steer asked for replaced by another of the same length.
type versionRewriter struct {
	http.ResponseWriter
	to string
}

func (v *versionRewriter) Write(p []byte) (int, error) {
	return v.ResponseWriter.Write(bytes.ReplaceAll(p, []byte(`"protocolVersion":"`+protocolVersion+`"`), []byte(`"protocolVersion":"`+v.to+`"`)))
}

func (v *versionRewriter) Flush() {
	if f, ok := v.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// serverRetry is the SSE retry delay the test server asks for: longer than
// the SDK's own first reconnect delay (1 s and jitter up to 1 s more), so
// that a reconnect after it shows it was honoured.
const serverRetry = 2500 * time.Millisecond

// TestStandaloneStreamResumes: the GET stream for the server's own
// messages, dropped by the server after an event with an id and a retry
// delay, is opened again after that delay with Last-Event-ID, in the same
// session, and the server stays ready.
func TestStandaloneStreamResumes(t *testing.T) {
	rec, _ := newRecorder(t, false)
	var (
		mu      sync.Mutex
		gets    []recorded
		dropped time.Time
	)
	again := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			rec.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		gets = append(gets, recorded{session: r.Header.Get(sessionIDHeader), lastEventID: r.Header.Get("Last-Event-ID"), at: time.Now()})
		n := len(gets)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		if n == 1 { // a priming event (no data), then the drop
			fmt.Fprintf(w, "id: ev-1\nretry: %d\ndata:\n\n", serverRetry.Milliseconds())
			w.(http.Flusher).Flush()
			mu.Lock()
			dropped = time.Now()
			mu.Unlock()
			return
		}
		w.(http.Flusher).Flush()
		if n == 2 {
			close(again)
		}
		<-r.Context().Done()
	}))
	t.Cleanup(ts.Close)
	m := started(t, Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 30 * time.Second})
	select {
	case <-again:
	case <-time.After(20 * time.Second):
		t.Fatal("the GET stream was not opened again")
	}
	mu.Lock()
	defer mu.Unlock()
	first, second := gets[0], gets[1]
	if first.lastEventID != "" || second.lastEventID != "ev-1" || second.session == "" || second.session != first.session {
		t.Errorf("GETs %+v then %+v: want the second to resume ev-1 in the same session", first, second)
	}
	if wait := second.at.Sub(dropped); wait < serverRetry {
		t.Errorf("reconnected %v after the drop, before the server's retry delay %v", wait, serverRetry)
	}
	if st := statusOf(t, m, "remote"); st.State != StateReady {
		t.Errorf("status %+v", st)
	}
}
