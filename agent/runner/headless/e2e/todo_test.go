package e2e

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// todoJSON is a todo list as get_state and the todo annotation carry it.
type todoJSON struct {
	Items []struct{ Text, Status string }
}

// TestTodoSurvivesRestartAndCompaction: a todo call in `steer run` emits
// the todo annotation and answers with the marked lines; a new process
// continuing the session (rpc) sees the list in get_state, before and after
// a compaction that summarised the call away; the export shows it.
func TestTodoSurvivesRestartAndCompaction(t *testing.T) {
	s := newSandbox(t)
	items := []any{
		map[string]any{"text": "read the parser", "status": "done"},
		map[string]any{"text": "fix the bug", "status": "in_progress"},
		map[string]any{"text": "add a test", "status": "pending"},
	}
	const rendered = "[x] read the parser\n[~] fix the bug\n[ ] add a test"
	r := callTool(t, s, nil, "todo", map[string]any{"items": items})
	if r.isError || r.result != rendered {
		t.Fatalf("the todo result %q (error %v), want %q", r.result, r.isError, rendered)
	}
	notes := ofType(r.lines, "todo")
	if len(notes) != 1 {
		t.Fatalf("todo annotations %v, want one", notes)
	}
	want := listOf(t, notes[0])

	in := strings.Join([]string{
		`{"type":"get_state","id":"before"}`,
		`{"type":"compact","id":"c"}`,
		`{"type":"get_state","id":"after"}`,
		`{"type":"get_messages","id":"m"}`,
	}, "\n") + "\n"
	code, stdout, stderr := s.run(strings.NewReader(in), "--pace", "0", "--continue", "rpc")
	if code != 0 {
		t.Fatalf("rpc: exit %d: %s", code, stderr)
	}
	responses := map[string]map[string]any{}
	for _, l := range ofType(jsonLines(t, stdout), "response") {
		if id, _ := l["id"].(string); id != "" {
			responses[id] = l
		}
	}
	if c := responses["c"]; c["success"] != true {
		t.Fatalf("compact: %v", c)
	}
	for _, id := range []string{"before", "after"} {
		data, _ := responses[id]["data"].(map[string]any)
		if got := listOf(t, data["todo"]); !reflect.DeepEqual(got, want) {
			t.Errorf("get_state %s the compaction: todo %+v, want %+v", id, got, want)
		}
	}
	var compacted struct{ Summary string }
	if b, _ := json.Marshal(responses["c"]["data"]); json.Unmarshal(b, &compacted) != nil ||
		!strings.Contains(compacted.Summary, "<todo-list>\n"+rendered+"\n</todo-list>") {
		t.Errorf("the compaction's summary does not carry the list verbatim: %s", b)
	}
	msgs, _ := responses["m"]["data"].(map[string]any)
	if b, _ := json.Marshal(msgs); strings.Contains(string(b), `"toolName":"todo"`) {
		t.Errorf("the compaction kept the todo call, so the list was not carried by the summary: %s", b)
	}

	code, out, errOut := s.run(nil, "sessions", "--json")
	var list []struct{ ID string }
	if code != headless.ExitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: %q %s", out, errOut)
	}
	code, md, errOut := s.run(nil, "sessions", "export", list[0].ID, "--format", "md")
	if code != headless.ExitOK || !strings.Contains(md, "## Todo (1/3 done)\n") || !strings.Contains(md, rendered) {
		t.Fatalf("export: exit %d: %s\n%.3000s", code, errOut, md)
	}
}

// listOf decodes a todo list from an event's or a state's JSON.
func listOf(t *testing.T, v any) todoJSON {
	t.Helper()
	b, err := json.Marshal(v)
	var l todoJSON
	if err != nil || json.Unmarshal(b, &l) != nil || len(l.Items) == 0 {
		t.Fatalf("no todo list in %s", b)
	}
	return l
}
