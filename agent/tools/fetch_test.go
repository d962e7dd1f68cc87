package tools

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// pageServer serves handler on loopback and counts the requests it gets.
func pageServer(t *testing.T, handler http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// serve writes body with contentType, and its length when sized.
func serve(contentType, body string, sized bool) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		if sized {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		fmt.Fprint(w, body)
	}
}

// bigPage is an HTML page of n bytes.
func bigPage(n int) string {
	const head, tail = "<html><body><p>", "</p></body></html>"
	return head + strings.Repeat("word ", (n-len(head)-len(tail))/5) + strings.Repeat(" ", (n-len(head)-len(tail))%5) + tail
}

// TestFetchPages: what fetch makes of the pages a server sends, on
// loopback with allowPrivate.
func TestFetchPages(t *testing.T) {
	const fiveMB = 5 << 20
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		args    map[string]any
		isError bool
		has     []string
		hasNot  []string
		// maxText is the most text before the notes, 0 for no check.
		maxText   int
		truncated bool
	}{
		{name: "HTML becomes Markdown", handler: serve("text/html; charset=utf-8", samplePage, true),
			has: []string{"# Hello", "Some **bold** and a [link](http://"}, hasNot: []string{"<p>", "[cut at"}},
		{name: "format text", handler: serve("text/html", samplePage, true), args: map[string]any{"format": "text"},
			has: []string{"Some bold and a link."}, hasNot: []string{"**", "<p>"}},
		{name: "format raw", handler: serve("text/html", samplePage, true), args: map[string]any{"format": "raw"},
			has: []string{"<p>Some <b>bold</b>"}},
		{name: "JSON as it is", handler: serve("application/json", `{"ok": true}`, true), has: []string{`{"ok": true}`}},
		{name: "a 5 MB page is cut at 100 KB", handler: serve("text/html", bigPage(fiveMB), true),
			has:     []string{"word word", "[cut at 100 KB of 5.0 MB: this is its head; raise maxBytes (up to 1.0 MB) for more]"},
			maxText: 100 << 10, truncated: true},
		{name: "maxBytes above 1 MB is lowered", handler: serve("text/plain", strings.Repeat("x", fiveMB), true),
			args:    map[string]any{"maxBytes": float64(5_000_000)},
			has:     []string{"maxBytes 5000000 is more than fetch returns; lowered to 1.0 MB", "cut at 1.0 MB of 5.0 MB: this is its head]"},
			maxText: 1 << 20, truncated: true},
		{name: "a small maxBytes", handler: serve("text/plain", strings.Repeat("y", 5000), true), args: map[string]any{"maxBytes": float64(1000)},
			has: []string{"cut at 1000 bytes of 4.9 KB"}, maxText: 1000, truncated: true},
		{name: "a page of no stated size", handler: serve("text/plain", strings.Repeat("z", 300<<10), false),
			has: []string{"cut at 100 KB of a page whose size the server did not give"}, maxText: 100 << 10, truncated: true},
		{name: "an image is refused with its type", handler: serve("image/png", png, true),
			isError: true, has: []string{"is image/png, which fetch does not read"}},
		{name: "bytes of no type are sniffed", handler: serve("application/octet-stream", png, true),
			isError: true, has: []string{"image/png"}},
		{name: "text of no type is read", handler: serve("", "just words\n", true), has: []string{"just words"}},
		{name: "a 404 is an error with its page", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "<h1>No such page</h1>")
		}, isError: true, has: []string{"HTTP 404 Not Found\n\n# No such page"}},
		{name: "an empty page", handler: serve("text/plain", "", true), has: []string{"(empty page)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := pageServer(t, tc.handler)
			args := map[string]any{"url": srv.URL + "/page"}
			for k, v := range tc.args {
				args[k] = v
			}
			r := execute(t, Fetch(WithFetchAllowPrivate(true)), args)
			got := text(r)
			if r.IsError != tc.isError {
				t.Errorf("isError = %v, want %v: %.300q", r.IsError, tc.isError, got)
			}
			for _, s := range tc.has {
				if !strings.Contains(got, s) {
					t.Errorf("result %.300q…, want it to hold %q", got, s)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(got, s) {
					t.Errorf("result %.300q…, want no %q", got, s)
				}
			}
			if tc.maxText > 0 {
				body, _, _ := strings.Cut(got, "\n\n[")
				if len(body) > tc.maxText {
					t.Errorf("%d bytes of text, want at most %d", len(body), tc.maxText)
				}
			}
			if d, ok := r.Details.(FetchDetails); !tc.isError && (!ok || d.Truncated != tc.truncated) {
				t.Errorf("details %+v, want truncated %v", r.Details, tc.truncated)
			}
		})
	}
}

// TestFetchRefusesWithoutAllowPrivate: a loopback server is refused before
// any connection, and a URL that is not http(s) is refused before any.
func TestFetchRefuses(t *testing.T) {
	srv, hits := pageServer(t, serve("text/plain", "secret", true))
	for _, tc := range []struct{ url, want string }{
		{srv.URL, "a loopback address; fetch connects only to public addresses unless tools.fetch.allowPrivate is true"},
		{"http://10.1.2.3/", "refused: 10.1.2.3 is a private address"},
		{"http://[::ffff:127.0.0.1]:1/", "127.0.0.1 is a loopback address"},
		{"file:///etc/passwd", "refused: file:///etc/passwd: fetch reads only http and https URLs, not file:"},
		{"ftp://example.com/x", "not ftp:"},
		{"example.com", "not a full URL"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			r := execute(t, Fetch(), map[string]any{"url": tc.url})
			if !r.IsError || !strings.Contains(text(r), tc.want) || strings.Contains(text(r), "secret") {
				t.Errorf("result %q (error %v), want a refusal holding %q", text(r), r.IsError, tc.want)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests, want 0", n)
	}
}

// TestFetchRedirects: redirects are followed up to the limit, each hop's
// scheme and address checked; a public page redirecting to a private
// address is refused before the private one is dialled.
func TestFetchRedirects(t *testing.T) {
	srv, hits := pageServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/start":
			http.Redirect(w, r, "/final", http.StatusFound)
		case r.URL.Path == "/final":
			serve("text/plain", "arrived from "+r.Host, true)(w, r)
		case r.URL.Path == "/inside":
			http.Redirect(w, r, "http://inside.test/secret", http.StatusFound)
		case r.URL.Path == "/file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/loop/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/loop/"))
			http.Redirect(w, r, fmt.Sprintf("/loop/%d", n+1), http.StatusFound)
		default:
			serve("text/plain", "secret", true)(w, r)
		}
	})
	f := &fakeNet{target: srv.Listener.Addr().String(), hosts: map[string][]string{
		"public.test": {"93.184.216.34"},
		"inside.test": {"10.0.0.7"},
	}}
	tool := newFetch(f.guard(false))
	for _, tc := range []struct {
		name, path string
		isError    bool
		has        string
		requests   int32
	}{
		{"followed", "/start", false, "arrived from public.test\n\n[redirected to http://public.test/final]", 2},
		{"to another host", "/inside", true, "redirected to another host: http://inside.test/secret; fetch it with a call of its own", 1},
		{"to a file URL", "/file", true, "redirected to file:///etc/passwd, which fetch does not follow: fetch reads only http and https URLs", 1},
		{"no more than five", "/loop/0", true, "stopped after 5 redirects (the last to http://public.test/loop/6)", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := hits.Load()
			r := execute(t, tool, map[string]any{"url": "http://public.test" + tc.path})
			if r.IsError != tc.isError || !strings.Contains(text(r), tc.has) || strings.Contains(text(r), "secret\n") {
				t.Errorf("result %q (error %v), want %q (error %v)", text(r), r.IsError, tc.has, tc.isError)
			}
			if n := hits.Load() - before; n != tc.requests {
				t.Errorf("the server got %d requests, want %d", n, tc.requests)
			}
		})
	}
	for _, d := range f.dials() {
		if d != "93.184.216.34:80" {
			t.Errorf("dialled %s: only the public address may be", d)
		}
	}
}

// TestFetchSaysWhoAsks: requests carry steer's User-Agent.
func TestFetchSaysWhoAsks(t *testing.T) {
	var agent atomic.Value
	srv, _ := pageServer(t, func(w http.ResponseWriter, r *http.Request) {
		agent.Store(r.UserAgent())
		serve("text/plain", "ok", true)(w, r)
	})
	execute(t, Fetch(WithFetchAllowPrivate(true)), map[string]any{"url": srv.URL})
	if ua, _ := agent.Load().(string); !strings.HasPrefix(ua, "steer ") {
		t.Errorf("User-Agent %q, want steer's", ua)
	}
}

// TestFetchAbort: a fetch ends when its context does, mid-request.
func TestFetchAbort(t *testing.T) {
	arrived, release := make(chan struct{}), make(chan struct{})
	srv, _ := pageServer(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	r, err := Fetch(WithFetchAllowPrivate(true)).Execute(ctx, "c", map[string]any{"url": srv.URL}, nil)
	if err != nil || !r.IsError || !strings.Contains(text(r), "context canceled") {
		t.Errorf("an aborted fetch: %q (error %v), %v", text(r), r.IsError, err)
	}
}

func TestFetchDescribe(t *testing.T) {
	a := Fetch().(Describer).Describe(map[string]any{"url": "https://example.com/docs/page"})
	want := Access{Mutating: true, Summary: "fetch https://example.com/docs/page"}
	if !a.Mutating || a.Outside || a.Summary != want.Summary || !slices.Equal(a.Paths, want.Paths) {
		t.Errorf("Describe = %+v, want %+v", a, want)
	}
}
