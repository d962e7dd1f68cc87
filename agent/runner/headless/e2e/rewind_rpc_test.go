package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRPCRewindAndRedo: rpc rewind with dryRun previews the same files as
// `steer rewind --dry-run --json`, without it restores them, and redo
// brings the rewound state back.
func TestRPCRewindAndRedo(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	writeWS(t, s, "a.txt", "a\n")
	writeWS(t, s, "b.txt", "b\n")
	id := writeThenBash(t, s)
	cli := rewind(t, s, "--session", id, "--to", "1", "--dry-run")

	in := strings.Join([]string{
		`{"type":"rewind","to":1,"dryRun":true,"id":"d"}`,
		`{"type":"rewind","to":"1","code":true,"id":"r"}`,
		`{"type":"rewind","redo":true,"id":"u"}`,
		`{"type":"rewind","to":1,"code":true,"conversation":true,"id":"bad"}`,
	}, "\n") + "\n"
	code, stdout, stderr := s.run(strings.NewReader(in), "--pace", "0", "--session", id, "rpc")
	if code != 0 {
		t.Fatalf("rpc: exit %d: %s", code, stderr)
	}
	responses := map[string]map[string]any{}
	for _, l := range ofType(jsonLines(t, stdout), "response") {
		if rid, _ := l["id"].(string); rid != "" {
			responses[rid] = l
		}
	}
	data := func(rid string) []byte {
		r := responses[rid]
		if r["success"] != true {
			t.Fatalf("%s: %v", rid, r)
		}
		b, _ := json.Marshal(r["data"])
		return b
	}
	var dry rewindJSON
	if err := json.Unmarshal(data("d"), &dry); err != nil || dry.Result != nil {
		t.Fatalf("dry run answer %s: %v", data("d"), err)
	}
	if a, b := files(dry), files(cli); a != b || a == "" {
		t.Errorf("rpc previews %q, the CLI %q", a, b)
	}
	var done rewindJSON
	if err := json.Unmarshal(data("r"), &done); err != nil || done.Result == nil || len(done.Result.Restored) != 2 {
		t.Fatalf("rewind answer %s: %v", data("r"), err)
	}
	var redo struct{ Restored []string }
	if err := json.Unmarshal(data("u"), &redo); err != nil || len(redo.Restored) != 2 {
		t.Fatalf("redo answer %s: %v", data("u"), err)
	}
	if fileExists(filepath.Join(s.workspace, "a.txt")) || readWS(t, s, "b.txt") != "b\nx\n" {
		t.Errorf("after the redo the workspace is not as the turns left it")
	}
	if r := responses["bad"]; r["success"] != false || !strings.Contains(r["error"].(string), "exclude each other") {
		t.Errorf("code and conversation together: %v", r)
	}
}

// files is a preview's files as "path:change" in order.
func files(r rewindJSON) string {
	var out []string
	for _, f := range r.Preview.Files {
		out = append(out, f.Path+":"+f.Change)
	}
	return strings.Join(out, " ")
}
