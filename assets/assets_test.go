package assets

import (
	"io/fs"
	"strings"
	"testing"
)

func TestSystemPrompt(t *testing.T) {
	p := SystemPrompt()
	for _, tool := range []string{"`read`", "`ls`", "`bash`"} {
		if !strings.Contains(p, tool) {
			t.Errorf("system prompt does not mention %s", tool)
		}
	}
}

func TestScenarios(t *testing.T) {
	names := ScenarioNames()
	if len(names) < 6 {
		t.Fatalf("scenarios = %v, want at least six", names)
	}
	for _, name := range names {
		data, err := fs.ReadFile(Scenarios(), name+".json")
		if err != nil || len(data) == 0 {
			t.Errorf("scenario %s: %v (%d bytes)", name, err, len(data))
		}
	}
}
