package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRPCSteeringDuringATool(t *testing.T) {
	s := startRPC(t)
	s.send(`{"id":"1","type":"prompt","message":"run sleep 2"}`)
	if r := s.next("the prompt's response", 10*time.Second, response("prompt")); r["success"] != true || r["id"] != "1" {
		t.Fatalf("prompt response = %v", r)
	}
	s.next("the bash tool to start", 10*time.Second, ofType("tool_execution_start"))
	s.send(`{"id":"2","type":"steer","message":"focus on tests"}`)
	q := s.next("a queue_update listing the steering item", 10*time.Second, func(v map[string]any) bool {
		steering, _ := v["steering"].([]any)
		return v["type"] == "queue_update" && len(steering) == 1 && steering[0] == "focus on tests"
	})
	if items, _ := q["items"].([]any); len(items) != 1 {
		t.Fatalf("queue_update items = %v", q["items"])
	}
	if r := s.next("the steer response", 10*time.Second, response("steer")); r["success"] != true {
		t.Fatalf("steer response = %v", r)
	}
	end := s.next("the tool to end", 10*time.Second, ofType("tool_execution_end"))
	if end["isError"] != false {
		t.Fatalf("the tool did not finish normally: %v", end)
	}
	answer := s.next("the answer after the tool", 10*time.Second, messageEnd("assistant"))
	if text := assistantText(answer["message"]); !strings.HasPrefix(text, "Steering received: focus on tests") {
		t.Fatalf("answer after steering = %q", text)
	}
	s.next("agent_end", 10*time.Second, ofType("agent_end"))
	if n := s.count("agent_start"); n != 1 {
		t.Fatalf("%d agent_start events, want everything inside one run", n)
	}
}

func TestRPCFollowUpInsideTheRun(t *testing.T) {
	s := startRPC(t)
	s.send(`{"type":"prompt","message":"run sleep 1"}`)
	s.next("the bash tool to start", 10*time.Second, ofType("tool_execution_start"))
	s.send(`{"type":"follow_up","message":"and then this"}`)
	if r := s.next("the follow_up response", 10*time.Second, response("follow_up")); r["success"] != true {
		t.Fatalf("follow_up response = %v", r)
	}
	first := s.next("the answer to the tool", 10*time.Second, messageEnd("assistant"))
	if text := assistantText(first["message"]); strings.Contains(text, "and then this") {
		t.Fatalf("the follow-up was delivered before the agent would have stopped: %q", text)
	}
	user := s.next("the follow-up message", 10*time.Second, messageEnd("user"))
	if m, _ := user["message"].(map[string]any); m["content"] != "and then this" {
		t.Fatalf("next user message = %v", user["message"])
	}
	second := s.next("the answer to the follow-up", 10*time.Second, messageEnd("assistant"))
	if text := assistantText(second["message"]); !strings.HasPrefix(text, "You said: and then this") {
		t.Fatalf("answer to the follow-up = %q", text)
	}
	s.next("agent_end", 10*time.Second, ofType("agent_end"))
	if n := s.count("agent_start"); n != 1 {
		t.Fatalf("%d agent_start events, want the follow-up inside the same run", n)
	}
}

func TestRPCAbortKillsTheTool(t *testing.T) {
	s := startRPC(t)
	const marker = "sleep 31.4159"
	s.send(`{"type":"prompt","message":"run ` + marker + `"}`)
	s.next("the bash tool to start", 10*time.Second, ofType("tool_execution_start"))
	waitFor(t, func() bool { return len(processesRunning(marker)) > 0 }, "the sleep to start")
	s.send(`{"id":"a","type":"abort"}`)
	aborted := time.Now()
	s.next("agent_end", 5*time.Second, ofType("agent_end"))
	if d := time.Since(aborted); d > time.Second {
		t.Errorf("the run ended %v after the abort, want within a second", d)
	}
	var last map[string]any
	for _, v := range s.seen {
		if v["type"] == "message_end" {
			last, _ = v["message"].(map[string]any)
		}
	}
	if last["role"] != "assistant" || last["stopReason"] != "aborted" {
		t.Fatalf("last message = %v, want an aborted assistant message", last)
	}
	if pids := processesRunning(marker); len(pids) > 0 {
		t.Fatalf("sleep survived the abort: pids %v", pids)
	}
}

func TestRPCParseErrorsKeepTheServerAlive(t *testing.T) {
	s := startRPC(t)
	s.send(`this is not json`)
	if r := s.next("the parse response", 10*time.Second, response("parse")); r["success"] != false {
		t.Fatalf("parse response = %v", r)
	}
	s.send(`{"id":7,"type":"get_state"}`)
	r := s.next("the get_state response", 10*time.Second, response("get_state"))
	if r["success"] != true || r["id"] != float64(7) {
		t.Fatalf("get_state response = %v", r)
	}
	s.send(`{"type":"quit"}`)
	s.next("the quit response", 10*time.Second, response("quit"))
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("steer rpc exited with %v after quit", err)
	}
}

// processesRunning returns the pids whose command line contains want.
func processesRunning(want string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), want) && !strings.Contains(string(cmdline), "bash") {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// waitFor polls cond until it holds, failing after ten seconds.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
