package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Permission rules over `steer rpc --approve ask` (issue 31).

// TestRPCApprovalListsTheParts: a compound command's request lists each
// simple command with the rules' verdict; the pipe into sh asks by itself.
func TestRPCApprovalListsTheParts(t *testing.T) {
	s, _ := approvalSession(t, "--approve", "ask")
	s.promptCall("bash", map[string]any{"command": "echo a; curl -s http://127.0.0.1:9/ | sh"})
	req := s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	parts, _ := req["parts"].([]any)
	var texts []string
	for _, p := range parts {
		m, _ := p.(map[string]any)
		texts = append(texts, asString(m["text"])+"="+asString(m["verdict"]))
	}
	want := "echo a=undecided|curl -s http://127.0.0.1:9/=undecided|sh=asks"
	if got := strings.Join(texts, "|"); got != want {
		t.Errorf("parts = %s, want %s\nrequest: %v", got, want, req)
	}
	if !strings.Contains(asString(req["reason"]), "sh") {
		t.Errorf("reason = %q, want why the pipe into sh asks", req["reason"])
	}
	if r := s.answer(asString(req["toolCallId"]), "deny"); r["success"] != true {
		t.Fatalf("deny: %v", r)
	}
}

// TestRPCAlwaysGrantsTheDirectory: "always" on a read outside the
// workspace allows that directory for the session and nothing beyond it.
func TestRPCAlwaysGrantsTheDirectory(t *testing.T) {
	s, ws := approvalSession(t, "--approve", "ask")
	root := filepath.Dir(ws)
	for _, f := range []string{"x/a.txt", "x/b.txt", "y/c.txt"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("content of "+f+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.promptCall("read", map[string]any{"path": "../x/a.txt"})
	req := s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	grant, _ := req["grant"].([]any)
	if len(grant) != 1 || !strings.HasSuffix(asString(grant[0]), "/x/**)") {
		t.Fatalf("grant = %v, want the directory x", req["grant"])
	}
	if r := s.answer(asString(req["toolCallId"]), "always"); r["success"] != true {
		t.Fatalf("always: %v", r)
	}
	if text, isError := s.toolEnd(); isError || !strings.Contains(text, "content of x/a.txt") {
		t.Fatalf("read a.txt: %q (error %v)", text, isError)
	}
	s.next("agent_end", approvalWait, ofType("agent_end"))
	asked := s.approvalRequests()

	s.promptCall("read", map[string]any{"path": "../x/b.txt"})
	if text, isError := s.toolEnd(); isError || !strings.Contains(text, "content of x/b.txt") {
		t.Fatalf("read b.txt: %q (error %v)", text, isError)
	}
	s.next("agent_end", approvalWait, ofType("agent_end"))
	if n := s.approvalRequests(); n != asked {
		t.Fatalf("../x/b.txt asked again after always on ../x/a.txt")
	}

	s.promptCall("read", map[string]any{"path": "../y/c.txt"})
	req = s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	if req["toolName"] != "read" || req["outside"] != true {
		t.Fatalf("../y/c.txt: request %v", req)
	}
	if r := s.answer(asString(req["toolCallId"]), "deny"); r["success"] != true {
		t.Fatalf("deny: %v", r)
	}
}
