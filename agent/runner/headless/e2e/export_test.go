package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestExportRedactsSecrets: a key that a tool printed (one of the
// environment's, and one only its shape gives away) is in no export format,
// and the export says how many it replaced.
func TestExportRedactsSecrets(t *testing.T) {
	s := newSandbox(t)
	const envKey, shapedKey = "zq-env-secret-7f3a9c2e1b", "ghp_abcdefghijklmnopqrstuvwx123456"
	s.setenv("DEPLOY_TOKEN", envKey)
	if code, _, errOut := s.run(nil, "run", "--approve", "auto", "run echo "+shapedKey+" && echo $DEPLOY_TOKEN-"+envKey); code != headless.ExitOK {
		t.Fatalf("steer run: exit %d: %s", code, errOut)
	}
	code, out, _ := s.run(nil, "sessions", "--json")
	var list []struct{ ID string }
	if code != headless.ExitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: %q", out)
	}
	counted := regexp.MustCompile(`; (\d+) secrets redacted`)
	for _, format := range []string{"md", "html", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			code, out, errOut := s.run(nil, "sessions", "export", list[0].ID, "--format", format)
			if code != headless.ExitOK {
				t.Fatalf("export: exit %d: %s", code, errOut)
			}
			if strings.Contains(out, envKey) || strings.Contains(out, shapedKey) {
				t.Fatalf("the %s export holds a key:\n%.2000s", format, out)
			}
			if !strings.Contains(out, "[redacted]") {
				t.Fatalf("the %s export says nothing was redacted:\n%.2000s", format, out)
			}
			if m := counted.FindStringSubmatch(errOut); m == nil || m[1] == "0" {
				t.Fatalf("stderr %q does not count the secrets replaced", errOut)
			}
		})
	}
}

// TestSearchFindsAWordOfAToolResult: a word that only a tool printed finds
// its session, and only that one.
func TestSearchFindsAWordOfAToolResult(t *testing.T) {
	s := newSandbox(t)
	for _, prompt := range []string{"run echo nothing here", "run printf 'x%sbarite' zanzi"} {
		if code, _, errOut := s.run(nil, "run", "--approve", "auto", prompt); code != headless.ExitOK {
			t.Fatalf("steer run: exit %d: %s", code, errOut)
		}
	}
	code, out, errOut := s.run(nil, "sessions", "search", "xzanzibarite", "--json")
	var hits []struct{ ID, Title, Match string }
	if code != headless.ExitOK || json.Unmarshal([]byte(out), &hits) != nil {
		t.Fatalf("search: exit %d: %s %s", code, out, errOut)
	}
	if len(hits) != 1 || !strings.Contains(hits[0].Title, "printf") || !strings.Contains(hits[0].Match, "[xzanzibarite]") {
		t.Fatalf("hits %+v, want the printf session's tool output", hits)
	}
}

// TestRenameNamesTheSessionEverywhere: `steer sessions rename` names a
// session; the list shows the name, --json carries it, search finds it, and
// an unknown id or a missing name is a usage error.
func TestRenameNamesTheSessionEverywhere(t *testing.T) {
	s := newSandbox(t)
	if code, _, errOut := s.run(nil, "run", "hello"); code != headless.ExitOK {
		t.Fatalf("steer run: exit %d: %s", code, errOut)
	}
	code, out, errOut := s.run(nil, "sessions", "--json")
	var list []struct{ ID, Name string }
	if code != headless.ExitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: exit %d: %s %s", code, out, errOut)
	}
	id := list[0].ID
	if code, out, errOut := s.run(nil, "sessions", "rename", id, "the", "parser", "rewrite"); code != headless.ExitOK || !strings.Contains(out, `"the parser rewrite"`) {
		t.Fatalf("rename: exit %d: %s %s", code, out, errOut)
	}
	if _, out, _ := s.run(nil, "sessions"); !strings.Contains(out, "the parser rewrite") {
		t.Fatalf("the list does not show the name:\n%s", out)
	}
	if _, out, _ := s.run(nil, "sessions", "search", "parser", "--json"); !strings.Contains(out, id) {
		t.Fatalf("search by name does not find the session: %s", out)
	}
	for _, args := range [][]string{{"sessions", "rename", "s_nope", "x"}, {"sessions", "rename", id}} {
		if code, _, errOut := s.run(nil, args...); code != headless.ExitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, errOut, headless.ExitUsage)
		}
	}
}
