package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// The tools (issue 13) through the binary, each called with the scripted
// model's `call TOOL {json}`.

// callPrompt is the prompt that makes the scripted model call tool with args.
func callPrompt(t *testing.T, tool string, args map[string]any) string {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return "call " + tool + " " + string(b)
}

// toolRun is one `steer run --json` that called one tool.
type toolRun struct {
	stdout, stderr string
	lines          []map[string]any
	// result is the text of the tool's result, isError its flag.
	result  string
	isError bool
}

// callTool runs `steer [flags] run --json PROMPT` with a call of tool, and
// returns what the one tool call gave; the run must complete.
func callTool(t *testing.T, s *sandbox, flags []string, tool string, args map[string]any) toolRun {
	t.Helper()
	argv := append(append([]string{"--pace", "0"}, flags...), "run", "--json", callPrompt(t, tool, args))
	code, stdout, stderr := s.run(nil, argv...)
	if code != headless.ExitOK {
		t.Fatalf("steer %q: exit %d: %s", argv, code, stderr)
	}
	r := toolRun{stdout: stdout, stderr: stderr, lines: jsonLines(t, stdout)}
	ends := ofType(r.lines, "tool_execution_end")
	if len(ends) != 1 || ends[0]["toolName"] != tool {
		t.Fatalf("tool_execution_end events %v, want one of %s", ends, tool)
	}
	res, _ := ends[0]["result"].(map[string]any)
	r.result, r.isError = messageText(res), ends[0]["isError"] == true
	return r
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// TestApprovalModesThroughTheBinary: --approve never refuses a write and a
// command with a result saying why; auto (steer run's default) runs them;
// ask, with nobody to answer in steer run, says they need approval, naming
// the rule that would allow each and --approve auto; the flag wins over the
// config's tools.approval.
func TestApprovalModesThroughTheBinary(t *testing.T) {
	neverCfg := writeFile(t, "never.json", `{"tools": {"approval": "never"}}`)
	for _, tc := range []struct {
		name    string
		flags   []string
		tool    string
		allowed bool
		why     []string // in the refusal
	}{
		{"never refuses write", []string{"--approve", "never"}, "write", false, []string{"refused", `"never"`, "changes files"}},
		{"never refuses bash", []string{"--approve", "never"}, "bash", false, []string{"refused", `"never"`, "runs a command"}},
		{"auto writes", []string{"--approve", "auto"}, "write", true, nil},
		{"auto runs bash", []string{"--approve", "auto"}, "bash", true, nil},
		{"run defaults to auto", nil, "write", true, nil},
		{"ask has nobody to ask", []string{"--approve", "ask"}, "write", false, []string{"needs approval", "Edit(./made.txt)", "--approve auto"}},
		{"ask has nobody to ask for bash", []string{"--approve", "ask"}, "bash", false, []string{"needs approval", "Bash(echo hi:*)", "--approve auto"}},
		{"the config's never", []string{"--config", neverCfg}, "write", false, []string{"refused", `"never"`}},
		{"the flag wins over the config", []string{"--config", neverCfg, "--approve", "auto"}, "write", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSandbox(t)
			target := filepath.Join(s.workspace, "made.txt")
			args := map[string]any{"path": "made.txt", "content": "hi"}
			if tc.tool == "bash" {
				args = map[string]any{"command": "echo hi > made.txt"}
			}
			r := callTool(t, s, tc.flags, tc.tool, args)
			made := fileExists(target)
			if tc.allowed {
				if r.isError || !made {
					t.Fatalf("not run: error %v, file made %v, result %q", r.isError, made, r.result)
				}
				if got, _ := os.ReadFile(target); strings.TrimSpace(string(got)) != "hi" {
					t.Fatalf("made.txt holds %q", got)
				}
				return
			}
			if !r.isError || made {
				t.Fatalf("not refused: error %v, file made %v, result %q", r.isError, made, r.result)
			}
			for _, w := range tc.why {
				if !strings.Contains(r.result, w) {
					t.Errorf("the refusal %q does not say %q", r.result, w)
				}
			}
		})
	}
}

// outsideSecret is the content of files outside the workspace: it must
// never show.
const outsideSecret = "OUTSIDE-SECRET-CONTENT-9931"

// escapeSandbox adds, beside the workspace, a file and a directory holding
// outsideSecret, and links to them from inside the workspace.
func escapeSandbox(t *testing.T) (s *sandbox, outsideFile string) {
	t.Helper()
	s = newSandbox(t)
	parent := filepath.Dir(s.workspace)
	outsideFile = filepath.Join(parent, "outside.txt")
	outsideDir := mkdir(t, parent, "outdir")
	for _, f := range []string{outsideFile, filepath.Join(outsideDir, "s.txt")} {
		if err := os.WriteFile(f, []byte(outsideSecret+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link.txt": "../outside.txt", "linkdir": "../outdir"} {
		if err := os.Symlink(target, filepath.Join(s.workspace, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mkdir(t, s.workspace, "sub"), "inside.txt"), []byte("inside content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return s, outsideFile
}

// assertNowhere fails if secret is in the output or any file of the state
// directory (database, WAL, logs, tool output).
func assertNowhere(t *testing.T, s *sandbox, secret string, outputs ...string) {
	t.Helper()
	for i, out := range outputs {
		if strings.Contains(out, secret) {
			t.Errorf("output %d holds %q", i, secret)
		}
	}
	err := filepath.WalkDir(s.stateDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s holds %q", path, secret)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFileToolsStayInTheWorkspace: read of ../x, of an absolute path
// outside and through symbolic links (a file, a directory) pointing outside
// is refused in every mode; the content never reaches stdout, stderr, the
// --json stream or the state directory. Writes and edits through a link
// leave the outside file alone, and grep, find and ls do not reach out.
func TestFileToolsStayInTheWorkspace(t *testing.T) {
	for _, mode := range []string{"", "auto", "never", "ask"} {
		t.Run("mode "+mode, func(t *testing.T) {
			s, outsideFile := escapeSandbox(t)
			var flags []string
			if mode != "" {
				flags = []string{"--approve", mode}
			}
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{"read", map[string]any{"path": "../outside.txt"}},
				{"read", map[string]any{"path": outsideFile}},
				{"read", map[string]any{"path": "link.txt"}},
				{"read", map[string]any{"path": "linkdir/s.txt"}},
				{"read", map[string]any{"path": "sub/../../outside.txt"}},
				{"grep", map[string]any{"pattern": "OUTSIDE-SECRET", "path": ".."}},
				{"grep", map[string]any{"pattern": "OUTSIDE-SECRET", "path": "linkdir"}},
				{"find", map[string]any{"pattern": "*.txt", "path": ".."}},
				{"ls", map[string]any{"path": "linkdir"}},
				{"write", map[string]any{"path": "link.txt", "content": "overwritten"}},
				{"edit", map[string]any{"path": "link.txt", "edits": []any{map[string]any{"oldText": "OUTSIDE", "newText": "X"}}}},
			} {
				r := callTool(t, s, flags, c.tool, c.args)
				if !r.isError || !strings.Contains(r.result, "outside the workspace") {
					t.Errorf("%s %v: not refused as outside the workspace: %q", c.tool, c.args, r.result)
				}
				assertNowhere(t, s, outsideSecret, r.stdout, r.stderr)
			}
			// The model reads inside the workspace in every mode, and a
			// search of the workspace does not follow the links out.
			if r := callTool(t, s, flags, "read", map[string]any{"path": "sub/inside.txt"}); r.isError || !strings.Contains(r.result, "inside content") {
				t.Errorf("read sub/inside.txt: %q", r.result)
			}
			r := callTool(t, s, flags, "grep", map[string]any{"pattern": "OUTSIDE-SECRET|inside content"})
			if r.isError || !strings.Contains(r.result, "inside.txt") {
				t.Errorf("grep of the workspace: %q", r.result)
			}
			assertNowhere(t, s, outsideSecret, r.stdout, r.stderr)
			// Plain output too: the answer on stdout, tool lines on stderr.
			code, stdout, stderr := s.run(nil, append(append([]string{"--pace", "0"}, flags...), "run", callPrompt(t, "read", map[string]any{"path": "link.txt"}))...)
			if code != headless.ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			assertNowhere(t, s, outsideSecret, stdout, stderr)
			if got, _ := os.ReadFile(outsideFile); string(got) != outsideSecret+"\n" {
				t.Errorf("the outside file was changed: %q", got)
			}
		})
	}
}

// TestAmbiguousEditChangesNothing: an edit whose oldText matches twice
// fails, saying so, and leaves the file as it was, even when another edit
// of the same call was fine.
func TestAmbiguousEditChangesNothing(t *testing.T) {
	s := newSandbox(t)
	const original = "alpha\nbeta\nalpha\ngamma\n"
	path := filepath.Join(s.workspace, "amb.txt")
	if err := os.WriteFile(path, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, edits := range [][]any{
		{map[string]any{"oldText": "alpha", "newText": "delta"}},
		{map[string]any{"oldText": "gamma", "newText": "epsilon"}, map[string]any{"oldText": "alpha", "newText": "delta"}},
	} {
		r := callTool(t, s, nil, "edit", map[string]any{"path": "amb.txt", "edits": edits})
		if !r.isError || !strings.Contains(r.result, "2 times") {
			t.Errorf("edits %v: %q, want a failure saying oldText matches 2 times", edits, r.result)
		}
		after, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != original || !after.ModTime().Equal(before.ModTime()) {
			t.Fatalf("edits %v changed the file: %q", edits, got)
		}
	}
	r := callTool(t, s, nil, "edit", map[string]any{"path": "amb.txt", "edits": []any{map[string]any{"oldText": "beta\nalpha", "newText": "beta\ndelta"}}})
	if got, _ := os.ReadFile(path); r.isError || string(got) != "alpha\nbeta\ndelta\ngamma\n" {
		t.Fatalf("a unique edit: %q, file %q", r.result, got)
	}
}

// TestGrepAndFindWork: grep finds by regexp, literally, ignoring case,
// with a glob filter and context lines; find matches ** globs; both leave
// out what .gitignore ignores.
func TestGrepAndFindWork(t *testing.T) {
	s := newSandbox(t)
	for name, body := range map[string]string{
		"src/sub/a.go":  "package sub\n\nfunc NeedleFunc() {}\n",
		"src/b.txt":     "a needle in text\nnext line\n",
		"src/c.md":      "costs 3.50 (a.b)\n",
		"ignored/c.go":  "package ignored // NeedleFunc\n",
		".gitignore":    "ignored/\n",
		"docs/readme.1": "nothing here\n",
	} {
		path := filepath.Join(s.workspace, name)
		mkdir(t, filepath.Dir(path))
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		tool         string
		args         map[string]any
		want, absent []string
	}{
		{"grep", map[string]any{"pattern": `Needle\w+`}, []string{"src/sub/a.go", "NeedleFunc"}, []string{"ignored"}},
		{"grep", map[string]any{"pattern": "needlefunc", "ignoreCase": true}, []string{"src/sub/a.go"}, nil},
		{"grep", map[string]any{"pattern": "needlefunc"}, []string{"No matches"}, []string{"a.go"}},
		{"grep", map[string]any{"pattern": "(a.b)", "literal": true}, []string{"src/c.md"}, []string{"b.txt"}},
		{"grep", map[string]any{"pattern": "needle", "ignoreCase": true, "glob": "*.txt"}, []string{"src/b.txt"}, []string{"a.go"}},
		{"grep", map[string]any{"pattern": "a needle", "context": 1}, []string{"src/b.txt", "next line"}, nil},
		{"find", map[string]any{"pattern": "**/*.go"}, []string{"src/sub/a.go"}, []string{"ignored"}},
		{"find", map[string]any{"pattern": "*.txt", "path": "src"}, []string{"b.txt"}, []string{"a.go", "c.md"}},
	} {
		r := callTool(t, s, nil, c.tool, c.args)
		if r.isError {
			t.Errorf("%s %v failed: %q", c.tool, c.args, r.result)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r.result, w) {
				t.Errorf("%s %v = %q, want %q in it", c.tool, c.args, r.result, w)
			}
		}
		for _, a := range c.absent {
			if strings.Contains(r.result, a) {
				t.Errorf("%s %v = %q, want no %q", c.tool, c.args, r.result, a)
			}
		}
	}
}

// Bounds of the 100 MB bash output test (issue 13).
const (
	maxSteerRSSKB     = 150 * 1024
	maxBashResultSize = 200 * 1024
)

// fullOutputPath finds the path of the full output a bash result names.
var fullOutputPath = regexp.MustCompile(`(/\S+\.log)\b`)

// TestHugeBashOutputStaysBounded: a command printing ~100 MB completes with
// steer's peak RSS under 150 MB; the model gets under 200 KB with the head,
// the tail (LAST) and the path of the full output, which is on disk in the
// state directory.
func TestHugeBashOutputStaysBounded(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	cmd := s.command("--pace", "0", "run", "--json", callPrompt(t, "bash", map[string]any{"command": "seq 1 12000000; echo LAST"}))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd, 2*time.Minute); code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this platform")
	}
	t.Logf("steer's peak RSS: %d KB", usage.Maxrss)
	if usage.Maxrss >= maxSteerRSSKB {
		t.Errorf("steer's peak RSS %d KB, want under %d KB", usage.Maxrss, maxSteerRSSKB)
	}
	ends := ofType(jsonLines(t, stdout.String()), "tool_execution_end")
	if len(ends) != 1 {
		t.Fatalf("%d tool_execution_end events", len(ends))
	}
	res, _ := ends[0]["result"].(map[string]any)
	text := messageText(res)
	if len(text) >= maxBashResultSize || !strings.HasPrefix(text, "1\n2\n3\n") || !strings.HasSuffix(strings.TrimSpace(text), "LAST") {
		t.Fatalf("the result the model got (%d bytes) is not bounded with head and tail: %.200q … %q", len(text), text, text[max(0, len(text)-200):])
	}
	m := fullOutputPath.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the result names no full output file")
	}
	if rel, err := filepath.Rel(s.stateDir, m[1]); err != nil || strings.HasPrefix(rel, "..") {
		t.Errorf("the full output %s is not in the state directory %s", m[1], s.stateDir)
	}
	info, err := os.Stat(m[1])
	if err != nil || info.Size() < 90_000_000 {
		t.Fatalf("the full output %s: %v (size %d)", m[1], err, sizeOf(info))
	}
	f, err := os.Open(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	end := make([]byte, 20)
	if _, err := f.ReadAt(end, info.Size()-int64(len(end))); err != nil || !strings.HasSuffix(string(end), "12000000\nLAST\n") {
		t.Errorf("the full output ends %q (%v)", end, err)
	}
}

func sizeOf(info os.FileInfo) int64 {
	if info == nil {
		return -1
	}
	return info.Size()
}

// fakeKey is an API key that must never be written anywhere.
const fakeKey = "sk-test-FAKEKEY123"

// TestFakeKeyIsWrittenNowhere: with OPENAI_API_KEY set in the environment
// of a run on the scripted provider, a command printing its environment
// (and enough more to be saved to a tool-output file) leaves the key out of
// stdout, stderr and every file of the state directory.
func TestFakeKeyIsWrittenNowhere(t *testing.T) {
	s := newSandbox(t)
	s.setenv("OPENAI_API_KEY", fakeKey)
	s.setenv("DEPLOY_TOKEN", fakeKey+"-token")
	prompt := callPrompt(t, "bash", map[string]any{"command": "env; seq 1 100000; env"})
	code, stdout, stderr := s.run(nil, "--model", "scripted/echo", "--pace", "0", "run", "--json", prompt)
	if code != headless.ExitOK || !strings.Contains(stdout, "PATH=") {
		t.Fatalf("exit %d (%s); no env output in:\n%.300s", code, stderr, stdout)
	}
	code, plain, plainErr := s.run(nil, "--model", "scripted/echo", "--pace", "0", "run", prompt)
	if code != headless.ExitOK {
		t.Fatalf("plain run: exit %d: %s", code, plainErr)
	}
	outputs, _ := filepath.Glob(filepath.Join(s.stateDir, "tool-output", "*"))
	if len(outputs) == 0 {
		t.Fatalf("no tool-output file was written: the test checks nothing there")
	}
	assertNowhere(t, s, fakeKey, stdout, stderr, plain, plainErr)
}

// TestAProviderEchoingTheKeyLeavesNoTrace: a loopback OpenAI-compatible
// server that rejects the key quoting it in its error (as real ones quote
// part of it) gets the run to fail, and the key is in neither the output
// nor the state directory.
func TestAProviderEchoingTheKeyLeavesNoTrace(t *testing.T) {
	keys := make(chan string, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		keys <- key
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`, key)
	}))
	defer ts.Close()
	s := newSandbox(t)
	s.setenv("LOCAL_KEY", fakeKey)
	cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"profiles": [{"id": "local:main", "apiKeyEnv": "LOCAL_KEY"}], "models": [{"id": "m"}]}}}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", "hello")
	if code != headless.ExitFailed || !strings.Contains(stderr, "Incorrect API key provided") {
		t.Fatalf("exit %d, want 1 with the server's error: %s", code, stderr)
	}
	if got := <-keys; got != fakeKey {
		t.Fatalf("the server got the key %q", got)
	}
	assertNowhere(t, s, fakeKey, stdout, stderr)
}

// TestHelpListsApprove: `steer help` lists the global --approve flag with
// its three modes, and a wrong mode is a usage error naming them.
func TestHelpListsApprove(t *testing.T) {
	s := newSandbox(t)
	code, stdout, stderr := s.run(nil, "help")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	at := strings.Index(stdout, "--approve")
	if at < 0 {
		t.Fatalf("steer help does not list --approve:\n%s", stdout)
	}
	// The flag's entry: its line and the lines continuing it.
	entry := stdout[at:min(len(stdout), at+300)]
	for _, w := range []string{"ask", "auto", "never"} {
		if !strings.Contains(entry, w) {
			t.Errorf("steer help's --approve entry lacks %q:\n%s", w, entry)
		}
	}
	code, _, stderr = s.run(nil, "--approve", "sometimes", "run", "hi")
	if code != headless.ExitUsage || !strings.Contains(stderr, "sometimes") || !strings.Contains(stderr, "never") {
		t.Errorf("--approve sometimes: exit %d, stderr %q", code, stderr)
	}
}
