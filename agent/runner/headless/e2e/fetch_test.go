package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// The fetch tool (issue 34) through the binary: a loopback page is
// Markdown with tools.fetch.allowPrivate and never reached without it, a
// 5 MB page is cut to the cap, file:// is refused, and the permission
// rules judge it by domain.

// fetchServer serves a small HTML page at / and a 5 MB one at /big, and
// counts the requests it gets.
func fetchServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	// paragraphs, so that the scripted model quotes a few lines of it, not 100 KB
	const para = "<p>filler filler filler filler filler filler filler filler</p>\n"
	big := "<html><body>" + strings.Repeat(para, (5<<20-len("<html><body></body></html>"))/len(para)) + "</body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/big" {
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			fmt.Fprint(w, big)
			return
		}
		fmt.Fprint(w, `<html><head><title>Local</title></head><body><h1>Release notes</h1>`+
			`<p>The <b>fetch</b> tool <a href="/docs">reads pages</a>.</p><script>secret()</script></body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestFetchThroughTheBinary(t *testing.T) {
	srv, hits := fetchServer(t)
	allow := writeFile(t, "allow.json", `{"tools": {"fetch": {"allowPrivate": true}}}`)
	for _, tc := range []struct {
		name     string
		flags    []string
		url      string
		isError  bool
		has      []string
		hasNot   []string
		requests int32
	}{
		{name: "a loopback page with allowPrivate is Markdown", flags: []string{"--config", allow}, url: srv.URL + "/",
			has:    []string{"# Release notes", "The **fetch** tool [reads pages](" + srv.URL + "/docs)."},
			hasNot: []string{"<p>", "secret()"}, requests: 1},
		{name: "without allowPrivate the server sees no request", url: srv.URL + "/", isError: true,
			has: []string{"refused: 127.0.0.1 is a loopback address", "tools.fetch.allowPrivate"}, hasNot: []string{"Release notes"}},
		{name: "a 5 MB page is capped", flags: []string{"--config", allow}, url: srv.URL + "/big",
			has: []string{"filler filler", "[cut at 100 KB of 5.0 MB: this is its head; raise maxBytes (up to 1.0 MB) for more]"}, requests: 1},
		{name: "file URLs are refused", flags: []string{"--config", allow}, url: "file:///etc/passwd", isError: true,
			has: []string{"fetch reads only http and https URLs, not file:"}, hasNot: []string{"root:"}},
		{name: "a private address is refused", url: "http://10.255.0.1/", isError: true,
			has: []string{"refused: 10.255.0.1 is a private address"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := hits.Load()
			r := callTool(t, newSandbox(t), tc.flags, "fetch", map[string]any{"url": tc.url})
			if r.isError != tc.isError {
				t.Errorf("isError = %v, want %v: %.300q", r.isError, tc.isError, r.result)
			}
			for _, s := range tc.has {
				if !strings.Contains(r.result, s) {
					t.Errorf("result %.300q…, want it to hold %q", r.result, s)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(r.result, s) {
					t.Errorf("result holds %q: %.300q", s, r.result)
				}
			}
			if n := hits.Load() - before; n != tc.requests {
				t.Errorf("the server got %d requests, want %d", n, tc.requests)
			}
			if body, _, _ := strings.Cut(r.result, "\n\n[cut at"); len(body) > 100<<10 {
				t.Errorf("%d bytes of page, want at most 100 KB", len(body))
			}
		})
	}
}

// TestFetchRulesThroughTheBinary: a deny rule refuses a domain even in
// auto, an allow rule runs it in ask where nobody can answer, and without
// one ask says which rule would.
func TestFetchRulesThroughTheBinary(t *testing.T) {
	srv, hits := fetchServer(t)
	cfg := func(rules string) string {
		return writeFile(t, "config.json", `{"tools": {"fetch": {"allowPrivate": true}}, "permissions": `+rules+`}`)
	}
	for _, tc := range []struct {
		name, rules, approve string
		ran                  bool
		has                  string
	}{
		{"a deny rule refuses in auto", `{"deny": ["WebFetch(domain:127.0.0.1)"]}`, "auto", false, "denied by rule WebFetch(domain:127.0.0.1)"},
		{"an allow rule runs in ask", `{"allow": ["WebFetch(domain:127.0.0.1)"]}`, "ask", true, "# Release notes"},
		{"another domain's rule does not", `{"allow": ["WebFetch(domain:example.com)"]}`, "ask", false,
			"it runs with the rule WebFetch(domain:127.0.0.1) in permissions.allow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := hits.Load()
			r := callTool(t, newSandbox(t), []string{"--config", cfg(tc.rules), "--approve", tc.approve}, "fetch", map[string]any{"url": srv.URL + "/"})
			if r.isError == tc.ran || !strings.Contains(r.result, tc.has) {
				t.Errorf("result %.300q (error %v), want %q", r.result, r.isError, tc.has)
			}
			if ran := hits.Load() > before; ran != tc.ran {
				t.Errorf("the server was reached: %v, want %v", ran, tc.ran)
			}
		})
	}
}
