package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRPCNotificationHook: while a call waits for approval, the
// Notification hooks run (notification_type permission_prompt, a message
// naming the tool), matched on the type as Claude Code's are, and the
// call still waits for the user's answer.
func TestRPCNotificationHook(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "notification.json")
	hook := "cat > " + got + ".part && mv " + got + ".part " + got
	cfg := filepath.Join(dir, "config.json")
	body, _ := json.Marshal(map[string]any{"hooks": map[string]any{"Notification": []any{map[string]any{
		"matcher": "permission_prompt", "hooks": []any{map[string]any{"type": "command", "command": hook}}}}}})
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		t.Fatal(err)
	}
	s, ws := approvalSession(t, "--approve", "ask", "--config", cfg)
	marker := filepath.Join(ws, "marker")
	s.promptCall("bash", map[string]any{"command": "touch " + marker})
	req := s.next("tool_approval_request", approvalWait, ofType("tool_approval_request"))
	var in map[string]any
	for deadline := time.Now().Add(approvalWait); ; {
		if b, err := os.ReadFile(got); err == nil {
			if err := json.Unmarshal(b, &in); err != nil {
				t.Fatalf("the hook read %q: %v", b, err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Notification hook did not run while the approval waited")
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
	if in["hook_event_name"] != "Notification" || in["notification_type"] != "permission_prompt" ||
		!strings.Contains(asString(in["message"]), "permission to use bash") {
		t.Errorf("the hook read %v", in)
	}
	if fileExistsAt(marker) {
		t.Fatal("the command ran before the answer")
	}
	if r := s.answer(req["toolCallId"].(string), "allow"); r["success"] != true {
		t.Fatalf("approve: %v", r)
	}
	if _, isError := s.toolEnd(); isError || !fileExistsAt(marker) {
		t.Fatal("the allowed command did not run")
	}
}
