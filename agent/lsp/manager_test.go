package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/lsp"
)

func TestMain(m *testing.M) {
	maybeServe()
	os.Exit(m.Run())
}

// fakeManager is a Manager of one fake server in mode for *.fk files,
// rooted at a new workspace, closed with the test.
func fakeManager(t *testing.T, mode string, o lsp.Options) (*lsp.Manager, string) {
	t.Helper()
	o.Workspace = t.TempDir()
	// named fake, which the results call it
	bin := filepath.Join(t.TempDir(), "fake")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	o.Servers = []lsp.Config{{Language: "fake", Command: bin, Filetypes: []string{"fk"}}}
	// a -race child would otherwise sleep a second as it exits
	o.Env = append(os.Environ(), fakeEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
	m := lsp.New(o)
	t.Cleanup(m.Close)
	return m, o.Workspace
}

// write writes content to name in ws and returns what AfterWrite says.
func write(t *testing.T, m *lsp.Manager, ws, name, content string) string {
	t.Helper()
	path := filepath.Join(ws, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), fakeTimeout)
	defer cancel()
	return m.AfterWrite(ctx, path, content)
}

// step is one write of a.fk and what its result must and must not say.
type step struct {
	content    string
	has, hasNo []string
}

func TestManagerAgainstFakeServers(t *testing.T) {
	const bad, clean = "package a\nERROR here\n  WARN there\n", "package a\n"
	found := []string{"fake: 1 error, 1 warning (after ", "a.fk:2:1 error ERROR here (fake)\na.fk:3:3 warning WARN there (fake)"}
	for _, tc := range []struct {
		name  string
		mode  string
		o     lsp.Options
		steps []step
	}{
		{name: "diagnostics of each version, errors first, then none", mode: modeOK, steps: []step{
			{content: bad, has: append(found, "started in ")},
			{content: clean, has: []string{"fake: no diagnostics (after "}, hasNo: []string{"started in"}},
			{content: bad, has: found},
		}},
		{name: "a server without versions", mode: modeNoVersion, steps: []step{
			{content: bad, has: found}, {content: clean, has: []string{"fake: no diagnostics"}},
		}},
		{name: "a stale publication is not the answer", mode: modeStale, steps: []step{
			{content: clean, has: []string{"no diagnostics"}},
			{content: clean + "WARN new\n", has: []string{"1 warning", "WARN new"}, hasNo: []string{"stale"}},
		}},
		{name: "the server's configuration request is answered", mode: modeAsks, steps: []step{
			{content: clean, has: []string{"fake: no diagnostics"}},
		}},
		{name: "a server that publishes nothing is waited for within the bounds", mode: modeSilent,
			o: lsp.Options{StartTimeout: time.Second, PublishWait: 300 * time.Millisecond}, steps: []step{
				{content: bad, has: []string{"fake started in ", ", then published nothing within 1.0 s"}},
				{content: clean, has: []string{"fake published nothing within 0.3 s"}},
			}},
		{name: "a server that never answers initialize fails and stays failed", mode: modeHang,
			o: lsp.Options{StartTimeout: 500 * time.Millisecond}, steps: []step{
				{content: bad, has: []string{"fake failed: initialize: no answer within 0.5 s"}},
				{content: clean, has: []string{"fake failed: initialize: no answer within 0.5 s"}},
			}},
		{name: "garbage fails the server", mode: modeGarbage, steps: []step{
			{content: clean, has: []string{"no diagnostics"}},
			{content: bad, has: []string{"fake failed: wrote what is not LSP"}},
		}},
		{name: "a crash fails the server with its stderr", mode: modeCrash, steps: []step{
			{content: clean, has: []string{"no diagnostics"}},
			{content: bad, has: []string{"fake failed: exited (exit status 3)", "its stderr: fake: crashing on a change"}},
		}},
		{name: "a server that stops reading fails at the request timeout", mode: modeDeaf,
			o: lsp.Options{RequestTimeout: 300 * time.Millisecond}, steps: []step{
				{content: strings.Repeat("x", 1<<20), has: []string{"fake failed: textDocument/didOpen: not read within 0.3 s"}},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, ws := fakeManager(t, tc.mode, tc.o)
			for i, s := range tc.steps {
				got := write(t, m, ws, "a.fk", s.content)
				for _, want := range s.has {
					if !strings.Contains(got, want) {
						t.Errorf("step %d: %q, want it to hold %q", i, got, want)
					}
				}
				for _, no := range s.hasNo {
					if strings.Contains(got, no) {
						t.Errorf("step %d: %q holds %q", i, got, no)
					}
				}
			}
		})
	}
}

// TestKilledServerFailsUntilRestarted: a server killed behind steer's back
// is failed with its exit, a file it does not handle gets nothing, and a
// restart brings it back.
func TestKilledServerFailsUntilRestarted(t *testing.T) {
	m, ws := fakeManager(t, modeOK, lsp.Options{})
	if got := write(t, m, ws, "a.fk", "ERROR\n"); !strings.Contains(got, "1 error") {
		t.Fatalf("first write: %q", got)
	}
	st := m.Servers()[0]
	if st.State != lsp.StateReady || st.PID == 0 || st.OpenFiles != 1 || st.Diagnostics.Errors != 1 {
		t.Fatalf("status %+v, want ready with one open file and one error", st)
	}
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if got := write(t, m, ws, "a.fk", "fine\n"); !strings.Contains(got, "fake failed: exited (signal: killed)") {
		t.Errorf("after the kill: %q", got)
	}
	if st := m.Servers()[0]; st.State != lsp.StateFailed || st.Reason != "exited (signal: killed)" || st.PID != 0 {
		t.Errorf("status after the kill %+v", st)
	}
	if got := write(t, m, ws, "notes.txt", "ERROR"); got != "" {
		t.Errorf("a file no server handles: %q, want nothing", got)
	}
	if got := write(t, m, t.TempDir(), "b.fk", "ERROR"); got != "" {
		t.Errorf("a file outside the workspace: %q, want nothing", got)
	}
	if err := m.Restart("fake"); err != nil {
		t.Fatal(err)
	}
	if got := write(t, m, ws, "a.fk", "fine\n"); !strings.Contains(got, "fake: no diagnostics") {
		t.Errorf("after the restart: %q", got)
	}
	if err := m.Restart("nope"); err == nil {
		t.Error("restarting an unknown server succeeded")
	}
	m.Close()
	if st := m.Servers()[0]; st.State != lsp.StateStopped {
		t.Errorf("after Close: %s", st.State)
	}
	if got := write(t, m, ws, "a.fk", "ERROR\n"); !strings.Contains(got, "closing") {
		t.Errorf("after Close: %q", got)
	}
}

// TestDiagnosticsTool: one file's diagnostics open it with the server;
// without a path, every published file's, errors first; a file no server
// handles is an error naming those that exist.
func TestDiagnosticsTool(t *testing.T) {
	m, ws := fakeManager(t, modeOK, lsp.Options{})
	ctx := context.Background()
	if got, _ := m.Diagnostics(ctx, ""); !strings.Contains(got, "no diagnostics published (fake not started)") {
		t.Errorf("before anything: %q", got)
	}
	if err := os.WriteFile(filepath.Join(ws, "b.fk"), []byte("WARN b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := m.Diagnostics(ctx, filepath.Join(ws, "b.fk"))
	if err != nil || !strings.Contains(got, "b.fk:1:1 warning WARN b (fake)") {
		t.Errorf("b.fk: %q, %v", got, err)
	}
	write(t, m, ws, "a.fk", "ERROR a\n")
	got, _ = m.Diagnostics(ctx, "")
	if want := "1 error, 1 warning published (fake ready):\na.fk:1:1 error ERROR a (fake)\nb.fk:1:1 warning WARN b (fake)"; got != want {
		t.Errorf("every file: %q, want %q", got, want)
	}
	if _, err := m.Diagnostics(ctx, filepath.Join(ws, "x.txt")); err == nil || !strings.Contains(err.Error(), "no language server handles .txt files (fake: .fk)") {
		t.Errorf("a .txt file: %v", err)
	}
}

// TestWarmStartsWithoutWaiting: a read's Warm starts the server of its
// file's language, and nothing for a file no server handles.
func TestWarmStartsWithoutWaiting(t *testing.T) {
	m, ws := fakeManager(t, modeOK, lsp.Options{})
	m.Warm(filepath.Join(ws, "notes.txt"))
	if st := m.Servers()[0].State; st != lsp.StateNotStarted {
		t.Fatalf("after warming a .txt file: %s", st)
	}
	m.Warm(filepath.Join(ws, "a.fk"))
	if st := m.Servers()[0].State; st != lsp.StateStarting && st != lsp.StateReady {
		t.Fatalf("after warming a .fk file: %s, want starting or ready", st)
	}
	if got := write(t, m, ws, "a.fk", "WARN\n"); !strings.Contains(got, "fake: 1 warning") {
		t.Errorf("the write after: %q", got)
	}
}
