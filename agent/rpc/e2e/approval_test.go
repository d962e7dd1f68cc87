package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Approvals over `steer rpc --approve ask` (issue 13): a call that needs
// approval sends tool_approval_request and waits for the approve command.

// approvalWait bounds each step of an approval exchange: generous, since a
// loaded machine runs the checkpoint of each call slowly.
const approvalWait = 30 * time.Second

// approvalSession is a `steer rpc` with flags in a workspace the test sees.
func approvalSession(t *testing.T, flags ...string) (s *rpcSession, workspace string) {
	t.Helper()
	root := t.TempDir()
	workspace = filepath.Join(root, "workspace")
	if err := os.Mkdir(workspace, 0o700); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{"--pace", "0"}, flags...), "rpc")
	return startCmd(t, steerIn(t.TempDir(), workspace, args...)), workspace
}

// promptCall sends a prompt that makes the scripted model call tool with
// args, and waits for its response.
func (s *rpcSession) promptCall(tool string, args map[string]any) {
	s.t.Helper()
	a, err := json.Marshal(args)
	if err != nil {
		s.t.Fatal(err)
	}
	cmd, err := json.Marshal(map[string]any{"id": "p", "type": "prompt", "message": "call " + tool + " " + string(a)})
	if err != nil {
		s.t.Fatal(err)
	}
	s.send(string(cmd))
	if r := s.next("the prompt's response", approvalWait, response("prompt")); r["success"] != true {
		s.t.Fatalf("prompt response = %v", r)
	}
}

// answer sends approve for the call and waits for its response.
func (s *rpcSession) answer(callID, decision string) map[string]any {
	s.t.Helper()
	cmd, _ := json.Marshal(map[string]any{"id": "a", "type": "approve", "toolCallId": callID, "decision": decision})
	s.send(string(cmd))
	return s.next("the approve response", approvalWait, response("approve"))
}

// toolEnd waits for the tool's end and returns its result text and error
// flag.
func (s *rpcSession) toolEnd() (text string, isError bool) {
	s.t.Helper()
	end := s.next("tool_execution_end", approvalWait, ofType("tool_execution_end"))
	return assistantText(end["result"]), end["isError"] == true
}

// approvalRequests counts the tool_approval_request events seen so far.
func (s *rpcSession) approvalRequests() int { return s.count("tool_approval_request") }

// TestRPCApprovalOfBash: over rpc --approve ask a bash call raises
// tool_approval_request with the call's fields; deny keeps the command from
// running and tells the model "denied by the user"; allow runs it; always
// runs it and the next bash call of the session asks no more.
func TestRPCApprovalOfBash(t *testing.T) {
	s, ws := approvalSession(t, "--approve", "ask")
	for i, decision := range []string{"deny", "allow", "always"} {
		marker := filepath.Join(ws, "marker-"+decision)
		s.promptCall("bash", map[string]any{"command": "touch " + marker})
		req := s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
		args, _ := req["args"].(map[string]any)
		id, _ := req["toolCallId"].(string)
		if id == "" || req["toolName"] != "bash" || args["command"] != "touch "+marker || req["outside"] != false ||
			!strings.Contains(asString(req["summary"]), "touch") {
			t.Fatalf("request %d = %v", i+1, req)
		}
		if _, ok := req["paths"].([]any); !ok {
			t.Errorf("request %d has no paths: %v", i+1, req)
		}
		if fileExistsAt(marker) {
			t.Fatalf("the command ran before the answer")
		}
		if r := s.answer(id, decision); r["success"] != true {
			t.Fatalf("approve %s: %v", decision, r)
		}
		text, isError := s.toolEnd()
		s.next("agent_end", approvalWait, ofType("agent_end"))
		switch ran := fileExistsAt(marker); {
		case decision == "deny" && (ran || !isError || !strings.Contains(text, "denied by the user")):
			t.Fatalf("deny: ran %v, result %q (error %v)", ran, text, isError)
		case decision != "deny" && (!ran || isError):
			t.Fatalf("%s: ran %v, result %q (error %v)", decision, ran, text, isError)
		}
	}
	asked := s.approvalRequests()
	marker := filepath.Join(ws, "marker-again")
	s.promptCall("bash", map[string]any{"command": "touch " + marker})
	if _, isError := s.toolEnd(); isError || !fileExistsAt(marker) {
		t.Fatalf("after always: the next bash call did not run")
	}
	s.next("agent_end", approvalWait, ofType("agent_end"))
	if n := s.approvalRequests(); n != asked {
		t.Fatalf("after always: %d more approval requests", n-asked)
	}
}

// TestRPCReadsInsideAskNothing: with --approve ask a read inside the
// workspace runs at once; a read outside asks (outside: true), and denied,
// its content is never sent.
func TestRPCReadsInsideAskNothing(t *testing.T) {
	s, ws := approvalSession(t, "--approve", "ask")
	if err := os.WriteFile(filepath.Join(ws, "inside.txt"), []byte("inside content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const secret = "OUTSIDE-SECRET-CONTENT-4242"
	if err := os.WriteFile(filepath.Join(filepath.Dir(ws), "outside.txt"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.promptCall("read", map[string]any{"path": "inside.txt"})
	text, isError := s.toolEnd()
	if isError || !strings.Contains(text, "inside content") {
		t.Fatalf("read inside: %q (error %v)", text, isError)
	}
	s.next("agent_end", approvalWait, ofType("agent_end"))
	if n := s.approvalRequests(); n != 0 {
		t.Fatalf("a read inside the workspace raised %d approval requests", n)
	}

	s.promptCall("read", map[string]any{"path": "../outside.txt"})
	req := s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	if req["toolName"] != "read" || req["outside"] != true {
		t.Fatalf("request = %v", req)
	}
	if r := s.answer(asString(req["toolCallId"]), "deny"); r["success"] != true {
		t.Fatalf("approve deny: %v", r)
	}
	if text, isError := s.toolEnd(); !isError || !strings.Contains(text, "denied by the user") {
		t.Fatalf("denied read: %q (error %v)", text, isError)
	}
	s.next("agent_end", approvalWait, ofType("agent_end"))
	for _, v := range s.seen {
		if b, _ := json.Marshal(v); strings.Contains(string(b), secret) {
			t.Fatalf("the outside content was sent: %s", b)
		}
	}
}

// TestRPCWaitingForApprovalPausesTheTimeout: with agent.timeoutSeconds 1, a
// call waiting twice that long for its approval still runs once allowed,
// and the run completes rather than timing out.
func TestRPCWaitingForApprovalPausesTheTimeout(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, []byte(`{"agent": {"timeoutSeconds": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, ws := approvalSession(t, "--config", cfg, "--approve", "ask")
	// The timeout holds: a command running longer than it is cut.
	s.promptCall("bash", map[string]any{"command": "sleep 3"})
	req := s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	s.answer(asString(req["toolCallId"]), "allow")
	end := s.next("agent_end", approvalWait, ofType("agent_end"))
	if last := lastMessage(end); last["stopReason"] != "aborted" || !strings.Contains(asString(last["errorMessage"]), "timed out") {
		t.Fatalf("a sleep 3 under a 1 s timeout ended %v: %v", last["stopReason"], last["errorMessage"])
	}

	marker := filepath.Join(ws, "marker")
	s.promptCall("bash", map[string]any{"command": "touch " + marker})
	req = s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	// The time under test: the run's whole timeout, twice, spent waiting.
	time.Sleep(2 * time.Second)
	if r := s.answer(asString(req["toolCallId"]), "allow"); r["success"] != true {
		t.Fatalf("approve allow: %v", r)
	}
	if text, isError := s.toolEnd(); isError || !fileExistsAt(marker) {
		t.Fatalf("the allowed call did not run: %q", text)
	}
	end = s.next("agent_end", approvalWait, ofType("agent_end"))
	if last := lastMessage(end); last["stopReason"] != "stop" {
		t.Fatalf("the run ended %v: %v", last["stopReason"], last["errorMessage"])
	}
}

// lastMessage is the last message of an agent_end event.
func lastMessage(end map[string]any) map[string]any {
	msgs, _ := end["messages"].([]any)
	if len(msgs) == 0 {
		return nil
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	return last
}

// TestRPCApproveWithoutAPendingCall: approve naming no waiting call, or with
// an unknown decision, fails and the server goes on.
func TestRPCApproveWithoutAPendingCall(t *testing.T) {
	s, _ := approvalSession(t, "--approve", "ask")
	if r := s.answer("call_nothing", "allow"); r["success"] != false || asString(r["error"]) == "" {
		t.Fatalf("approve of no call: %v", r)
	}
	if r := s.answer("call_nothing", "perhaps"); r["success"] != false || asString(r["error"]) == "" {
		t.Fatalf("approve with decision perhaps: %v", r)
	}
	s.send(`{"id":"s","type":"get_state"}`)
	if r := s.next("get_state", approvalWait, response("get_state")); r["success"] != true {
		t.Fatalf("get_state after bad approvals: %v", r)
	}
}

// TestRPCDefaultsToAuto: without --approve (and no config), steer rpc runs
// a bash call without asking.
func TestRPCDefaultsToAuto(t *testing.T) {
	s, ws := approvalSession(t)
	marker := filepath.Join(ws, "marker")
	s.promptCall("bash", map[string]any{"command": "touch " + marker})
	if _, isError := s.toolEnd(); isError || !fileExistsAt(marker) {
		t.Fatalf("bash did not run under rpc's default")
	}
	s.next("agent_end", approvalWait, ofType("agent_end"))
	if n := s.approvalRequests(); n != 0 {
		t.Fatalf("%d approval requests under auto", n)
	}
}

func fileExistsAt(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func asString(v any) string {
	s, _ := v.(string)
	return s
}

// TestRPCEndOfInputRefusesPendingApprovals: under --approve ask, a call
// waiting for approval when stdin ends is refused (no one can answer: the
// tool does not run and its result says why), the run ends and steer rpc
// exits 0 with the run's events out, instead of waiting for ever.
func TestRPCEndOfInputRefusesPendingApprovals(t *testing.T) {
	s, ws := approvalSession(t, "--approve", "ask")
	marker := filepath.Join(ws, "marker")
	s.promptCall("bash", map[string]any{"command": "touch " + marker})
	s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	s.in.Close()
	text, isError := s.toolEnd()
	if !isError || !strings.Contains(text, "no one can answer") {
		t.Fatalf("the waiting call's result %q (error %v), want a refusal saying no one can answer", text, isError)
	}
	s.next("agent_end", approvalWait, ofType("agent_end"))
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("steer rpc: %v", err)
		}
	case <-time.After(approvalWait):
		t.Fatal("steer rpc did not exit after the end of its input")
	}
	if fileExistsAt(marker) {
		t.Fatal("the refused command ran")
	}
}
