package lsp_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/lsp"
)

// onPath is a fake exec.LookPath that finds exactly names.
func onPath(names ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		if slices.Contains(names, name) {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
}

// brief is each resolved server as "language=command [filetypes]", with
// "(detected)" or "(disabled)".
func brief(cs []lsp.Config) string {
	var out []string
	for _, c := range cs {
		s := c.Language + "=" + strings.Join(append([]string{c.Command}, c.Args...), " ") + " [" + strings.Join(c.Filetypes, ",") + "]"
		if c.Detected {
			s += " (detected)"
		}
		if c.Disabled {
			s += " (disabled)"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name       string
		configured []lsp.Config
		path       []string
		want, err  string
	}{
		{name: "nothing configured, nothing on PATH"},
		{name: "defaults found on PATH", path: []string{"gopls", "pyright-langserver"},
			want: "go=gopls [go] (detected); python=pyright-langserver --stdio [py] (detected)"},
		{name: "every default", path: []string{"gopls", "typescript-language-server", "pyright-langserver", "rust-analyzer"},
			want: "go=gopls [go] (detected); typescript=typescript-language-server --stdio [ts,tsx,js,jsx,mjs,cjs] (detected); " +
				"python=pyright-langserver --stdio [py] (detected); rust=rust-analyzer [rs] (detected)"},
		{name: "enabled false turns a default off", path: []string{"gopls"},
			configured: []lsp.Config{{Language: "go", Disabled: true}}, want: "go=gopls [go] (disabled)"},
		{name: "a configured default language keeps what it leaves out", path: []string{"gopls"},
			configured: []lsp.Config{{Language: "go", Env: map[string]string{"GOFLAGS": "-mod=mod"}}}, want: "go=gopls [go]"},
		{name: "a configured command replaces the default's, not on PATH either",
			configured: []lsp.Config{{Language: "go", Command: "/opt/gopls", Args: []string{"-rpc.trace"}}}, want: "go=/opt/gopls -rpc.trace [go]"},
		{name: "a server claiming a default's filetype keeps the default out", path: []string{"typescript-language-server"},
			configured: []lsp.Config{{Language: "deno", Command: "deno", Args: []string{"lsp"}, Filetypes: []string{"ts"}}},
			want:       "deno=deno lsp [ts]"},
		{name: "a language of its own needs a command",
			configured: []lsp.Config{{Language: "zig", Filetypes: []string{"zig"}}}, err: `lsp.zig: needs a command`},
		{name: "and filetypes", configured: []lsp.Config{{Language: "zig", Command: "zls"}}, err: `lsp.zig: needs "filetypes"`},
		{name: "a filetype is a bare extension",
			configured: []lsp.Config{{Language: "zig", Command: "zls", Filetypes: []string{".zig"}}}, err: `filetype ".zig": want a bare extension`},
		{name: "two servers for one filetype",
			configured: []lsp.Config{{Language: "go"}, {Language: "other", Command: "x", Filetypes: []string{"go"}}},
			err:        `lsp.other: filetype "go" is also lsp.go's`},
		{name: "a disabled server claims nothing",
			configured: []lsp.Config{{Language: "go", Disabled: true}, {Language: "other", Command: "x", Filetypes: []string{"go"}}},
			want:       "go=gopls [go] (disabled); other=x [go]"},
		{name: "initializationOptions must be JSON",
			configured: []lsp.Config{{Language: "go", InitializationOptions: []byte("{")}}, err: "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lsp.Resolve(tc.configured, onPath(tc.path...))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one holding %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := brief(got); b != tc.want {
				t.Errorf("resolved %q, want %q", b, tc.want)
			}
		})
	}
}

func TestList(t *testing.T) {
	d := func(path string, line int, sev lsp.Severity, msg string) lsp.Diagnostic {
		return lsp.Diagnostic{Path: filepath.Join("/ws", path), Line: line, Col: 2, Severity: sev, Message: msg, Source: "src"}
	}
	rel := func(p string) string { r, _ := filepath.Rel("/ws", p); return r }
	mixed := []lsp.Diagnostic{d("b.go", 1, lsp.SeverityHint, "h"), d("b.go", 9, lsp.SeverityWarning, "w"),
		d("a.go", 5, lsp.SeverityError, "e2"), d("b.go", 2, 0, "no severity\n  is an error"), d("a.go", 1, lsp.SeverityInfo, "i")}
	many := make([]lsp.Diagnostic, 0, 25)
	for i := range 22 {
		many = append(many, d("a.go", i+1, lsp.SeverityWarning, "w"))
	}
	many = append(many, d("a.go", 99, lsp.SeverityError, "e"), d("a.go", 1, lsp.SeverityHint, "h"), d("a.go", 2, lsp.SeverityHint, "h"))
	for _, tc := range []struct {
		name string
		ds   []lsp.Diagnostic
		max  int
		want string
	}{
		{name: "errors, warnings, then infos and hints, each by place", ds: mixed, max: 20,
			want: "a.go:5:2 error e2 (src)\nb.go:2:2 error no severity is an error (src)\nb.go:9:2 warning w (src)\n" +
				"a.go:1:2 info i (src)\nb.go:1:2 hint h (src)"},
		{name: "capped, counting what is left out", ds: mixed, max: 2,
			want: "a.go:5:2 error e2 (src)\nb.go:2:2 error no severity is an error (src)\n… 3 more left out (1 warning, 2 info/hints)"},
		{name: "hints only if room", ds: many, max: lsp.MaxShown, want: "a.go:99:2 error e (src)\n" +
			listOf(19, "a.go:%d:2 warning w (src)\n") + "… 5 more left out (3 warnings, 2 info/hints)"},
		{name: "no source, no brackets", ds: []lsp.Diagnostic{{Path: "/ws/a.go", Line: 1, Col: 1, Severity: lsp.SeverityError, Message: "m"}},
			max: 20, want: "a.go:1:1 error m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := lsp.List(tc.ds, tc.max, rel); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// listOf is n lines of format, numbered from 1.
func listOf(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i+1)
	}
	return b.String()
}

func TestReportText(t *testing.T) {
	rel := func(p string) string { return filepath.Base(p) }
	e := lsp.Diagnostic{Path: "/ws/main.go", Line: 3, Col: 9, Severity: lsp.SeverityError, Message: "undefined: x", Source: "compiler"}
	for _, tc := range []struct {
		name string
		r    lsp.Report
		want string
	}{
		{name: "diagnostics", r: lsp.Report{Server: "gopls", Published: true, Diagnostics: []lsp.Diagnostic{e}, Waited: 400 * time.Millisecond},
			want: "gopls: 1 error (after 0.4 s):\nmain.go:3:9 error undefined: x (compiler)"},
		{name: "none, after a start", r: lsp.Report{Server: "gopls", Published: true, Waited: 300 * time.Millisecond, Started: 4100 * time.Millisecond},
			want: "gopls: no diagnostics (after 0.3 s; started in 4.1 s)"},
		{name: "nothing published", r: lsp.Report{Server: "gopls", Bound: 3 * time.Second}, want: "gopls published nothing within 3.0 s"},
		{name: "failed", r: lsp.Report{Server: "gopls", Failed: "exited (signal: killed)", Stderr: []string{"a", "b"}},
			want: "gopls failed: exited (signal: killed)\nits stderr: a | b"},
		{name: "cancelled", r: lsp.Report{Server: "gopls", Cancelled: true}, want: "gopls: diagnostics not awaited (cancelled)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Text(lsp.MaxShown, rel); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
