package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// `steer rewind` (issue 32) through the binary: turns made with the
// scripted model's `call write` and `call bash`, then rewound.

// sandboxGit runs the user's own git in the workspace, as a person would.
func sandboxGit(t *testing.T, s *sandbox, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = s.workspace
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// userRepoState is what the user sees of their repository.
func userRepoState(t *testing.T, s *sandbox) string {
	return sandboxGit(t, s, "status", "--porcelain=v1") + "|" + sandboxGit(t, s, "stash", "list") + "|" +
		sandboxGit(t, s, "rev-parse", "HEAD")
}

func readWS(t *testing.T, s *sandbox, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.workspace, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeWS(t *testing.T, s *sandbox, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.workspace, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// turn runs one `steer run --json` calling tool in session ("": a new one)
// and returns the session's id.
func turn(t *testing.T, s *sandbox, session, tool string, args map[string]any) string {
	t.Helper()
	var flags []string
	if session != "" {
		flags = []string{"--session", session}
	}
	r := callTool(t, s, flags, tool, args)
	if r.isError {
		t.Fatalf("%s failed: %s", tool, r.result)
	}
	id, _ := r.lines[0]["id"].(string)
	if id == "" {
		t.Fatalf("no session id in %v", r.lines[0])
	}
	return id
}

// writeThenBash is the two turns: write a.txt, then a command that
// removes it and appends to b.txt.
func writeThenBash(t *testing.T, s *sandbox) string {
	id := turn(t, s, "", "write", map[string]any{"path": "a.txt", "content": "written by steer\n"})
	turn(t, s, id, "bash", map[string]any{"command": "rm a.txt; echo x >> b.txt"})
	return id
}

// rewindJSON is what `steer rewind --json` prints.
type rewindJSON struct {
	Preview struct {
		Files []struct {
			Path, Change   string
			ChangedOutside bool
		}
		ChangedOutside []string
		LaterTurns     int
	}
	Result *struct {
		Restored, Skipped []string
		Conversation      bool
		Entry             string
	}
}

func rewind(t *testing.T, s *sandbox, args ...string) rewindJSON {
	t.Helper()
	code, stdout, stderr := s.run(nil, append([]string{"rewind", "--json"}, args...)...)
	if code != headless.ExitOK {
		t.Fatalf("steer rewind %v: exit %d: %s", args, code, stderr)
	}
	var out rewindJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("rewind --json printed %q: %v", stdout, err)
	}
	return out
}

// TestRewindRestoresTheWorkspace: in a git workspace with uncommitted
// changes and a stash, and in a plain directory, a rewind to before both
// turns brings a.txt back and b.txt as it was, and leaves the user's
// status, stash and HEAD exactly as before the session.
func TestRewindRestoresTheWorkspace(t *testing.T) {
	slow(t)
	for _, repo := range []bool{true, false} {
		t.Run(map[bool]string{true: "git workspace", false: "plain directory"}[repo], func(t *testing.T) {
			s := newSandbox(t)
			writeWS(t, s, "a.txt", "committed a\n")
			writeWS(t, s, "b.txt", "committed b\n")
			before := ""
			if repo {
				sandboxGit(t, s, "init", "-q")
				sandboxGit(t, s, "add", "a.txt", "b.txt")
				sandboxGit(t, s, "commit", "-qm", "base")
				writeWS(t, s, "b.txt", "stashed b\n")
				sandboxGit(t, s, "stash", "-q")
				writeWS(t, s, "b.txt", "committed b\nuncommitted\n")
				writeWS(t, s, "untracked.txt", "mine\n")
				before = userRepoState(t, s)
			}
			bBefore := readWS(t, s, "b.txt")
			id := writeThenBash(t, s)
			if fileExists(filepath.Join(s.workspace, "a.txt")) || !strings.HasSuffix(readWS(t, s, "b.txt"), "x\n") {
				t.Fatal("the turns did not run as scripted")
			}
			out := rewind(t, s, "--session", id, "--to", "1")
			if got := readWS(t, s, "a.txt"); got != "committed a\n" {
				t.Errorf("a.txt is %q, want it back as it was", got)
			}
			if got := readWS(t, s, "b.txt"); got != bBefore {
				t.Errorf("b.txt is %q, want %q", got, bBefore)
			}
			if repo {
				if after := userRepoState(t, s); after != before {
					t.Errorf("the user's repository changed:\nbefore %q\nafter  %q", before, after)
				}
			}
			if out.Result == nil || len(out.Result.Restored) != 2 || !out.Result.Conversation {
				t.Errorf("result %+v, want a.txt and b.txt restored and the conversation moved", out.Result)
			}
		})
	}
}

// TestRewindNamesAndSkipsAFileChangedOutside: a file edited by hand after
// steer's last tool is named in the dry run's preview, and --skip-changed
// leaves it as the user left it while the rest is restored.
func TestRewindNamesAndSkipsAFileChangedOutside(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	writeWS(t, s, "a.txt", "a\n")
	writeWS(t, s, "b.txt", "b\n")
	writeWS(t, s, "c.txt", "c\n")
	id := writeThenBash(t, s)
	writeWS(t, s, "c.txt", "edited by hand\n")

	dry := rewind(t, s, "--session", id, "--to", "1", "--dry-run")
	if dry.Result != nil {
		t.Fatalf("--dry-run rewound: %+v", dry.Result)
	}
	if len(dry.Preview.ChangedOutside) != 1 || dry.Preview.ChangedOutside[0] != "c.txt" {
		t.Fatalf("changedOutside %v, want [c.txt]", dry.Preview.ChangedOutside)
	}
	changes := map[string]string{}
	for _, f := range dry.Preview.Files {
		changes[f.Path] = f.Change
		if f.ChangedOutside != (f.Path == "c.txt") {
			t.Errorf("%s: changedOutside %v", f.Path, f.ChangedOutside)
		}
	}
	if changes["a.txt"] != "create" || changes["b.txt"] != "modify" || changes["c.txt"] != "modify" || len(changes) != 3 {
		t.Fatalf("preview files %v", dry.Preview.Files)
	}
	if readWS(t, s, "c.txt") != "edited by hand\n" || fileExists(filepath.Join(s.workspace, "a.txt")) {
		t.Fatal("--dry-run changed the workspace")
	}

	out := rewind(t, s, "--session", id, "--to", "1", "--skip-changed", "--code")
	if got := readWS(t, s, "c.txt"); got != "edited by hand\n" {
		t.Errorf("c.txt is %q: --skip-changed must leave it alone", got)
	}
	if readWS(t, s, "a.txt") != "a\n" || readWS(t, s, "b.txt") != "b\n" {
		t.Errorf("a.txt and b.txt are not restored")
	}
	if out.Result == nil || strings.Join(out.Result.Skipped, ",") != "c.txt" || out.Result.Conversation {
		t.Errorf("result %+v, want c.txt skipped and the conversation kept", out.Result)
	}
}

// TestRewindConversation: a conversation rewind leaves the files alone,
// takes the later turns off the active branch of `sessions show` and
// records a rewind entry there.
func TestRewindConversation(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	writeWS(t, s, "b.txt", "b\n")
	id := writeThenBash(t, s)
	out := rewind(t, s, "--session", id, "--to", "2", "--conversation")
	if out.Preview.LaterTurns != 1 || out.Result == nil || len(out.Result.Restored) != 0 {
		t.Fatalf("preview %+v result %+v", out.Preview, out.Result)
	}
	if !strings.HasSuffix(readWS(t, s, "b.txt"), "x\n") {
		t.Error("a conversation rewind changed b.txt")
	}
	code, show, stderr := s.run(nil, "sessions", "show", id)
	if code != headless.ExitOK {
		t.Fatalf("sessions show: exit %d: %s", code, stderr)
	}
	if strings.Contains(show, "rm a.txt") {
		t.Errorf("the rewound turn is still on the active branch:\n%s", show)
	}
	if !strings.Contains(show, "write") || !strings.Contains(show, "Rewound the conversation to before entry") {
		t.Errorf("sessions show has no first turn or no rewind entry:\n%s", show)
	}
	code, ctxt, _ := s.run(nil, "sessions", "show", id, "--context")
	if code != headless.ExitOK || strings.Contains(ctxt, "Rewound") {
		t.Errorf("the model's context holds the rewind entry:\n%s", ctxt)
	}

	// A redo (rpc) brings the rewound turn back onto the branch.
	code, stdout, stderr := s.run(strings.NewReader(`{"type":"rewind","redo":true,"id":"u"}`+"\n"), "--session", id, "rpc")
	if code != headless.ExitOK || !strings.Contains(stdout, `"success":true`) {
		t.Fatalf("redo: exit %d: %s%s", code, stdout, stderr)
	}
	_, show, _ = s.run(nil, "sessions", "show", id)
	if !strings.Contains(show, "rm a.txt") || !strings.Contains(show, "Redid what the rewind") {
		t.Errorf("after the redo the turn is not back on the branch, or the redo is not recorded:\n%s", show)
	}
}

// TestRewindMistakes: bad turns and sessions are usage errors, named.
func TestRewindMistakes(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	id := turn(t, s, "", "write", map[string]any{"path": "a.txt", "content": "a\n"})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--session", id, "--to", "5"}, "no turn 5"},
		{[]string{"--session", id, "--to", "x"}, "bad turn"},
		{[]string{"--session", "nope", "--to", "1"}, "no saved session"},
		{[]string{"--session", id}, "usage: steer rewind"},
		{[]string{"--session", id, "--to", "1", "--code", "--conversation"}, "exclude each other"},
		{[]string{"--to", "1", "--resume", "finish"}, "--resume"},
	} {
		code, _, stderr := s.run(nil, append([]string{"rewind"}, c.args...)...)
		if code != headless.ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("rewind %v: exit %d, stderr %q; want %d saying %q", c.args, code, stderr, headless.ExitUsage, c.want)
		}
	}
}
