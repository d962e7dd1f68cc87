package tools

import (
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestSchemas checks that every schema compiles and rejects bad arguments.
func TestSchemas(t *testing.T) {
	set, err := agent.NewToolSet(New(t.TempDir())...)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool string
		args map[string]any
		ok   bool
	}{
		{"read", map[string]any{"path": "a", "offset": 2.0, "limit": 10.0}, true},
		{"read", map[string]any{}, false},
		{"read", map[string]any{"path": "a", "offset": 0.0}, false},
		{"read", map[string]any{"path": "a", "limit": 1.5}, false},
		{"ls", map[string]any{}, true},
		{"ls", map[string]any{"path": "a", "limit": 3.0}, true},
		{"ls", map[string]any{"limit": 0.0}, false},
		{"bash", map[string]any{"command": "ls", "timeout": 1.5}, true},
		{"bash", map[string]any{"command": "ls", "timeout": 0.0}, false},
		{"bash", map[string]any{"cmd": "ls"}, false},
	}
	for _, tt := range tests {
		if err := set.Validate(tt.tool, tt.args); (err == nil) != tt.ok {
			t.Errorf("Validate(%s, %v) = %v, want ok %v", tt.tool, tt.args, err, tt.ok)
		}
	}
}
