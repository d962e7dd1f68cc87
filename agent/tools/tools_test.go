package tools

import (
	"slices"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestNewNamesPiTools: the tools and their order, with pi's names.
func TestNewNamesPiTools(t *testing.T) {
	var names []string
	for _, tool := range New(t.TempDir()) {
		spec := tool.Spec()
		names = append(names, spec.Name)
		if len(spec.Description) < 40 {
			t.Errorf("%s: description %q is too short to guide a model", spec.Name, spec.Description)
		}
	}
	want := []string{"read", "write", "edit", "ls", "find", "grep", "bash", "fetch", "todo"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

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
		{"write", map[string]any{"path": "a", "content": ""}, true},
		{"write", map[string]any{"path": "a"}, false},
		{"edit", map[string]any{"path": "a", "edits": []any{map[string]any{"oldText": "x", "newText": ""}}}, true},
		{"edit", map[string]any{"path": "a", "edits": []any{}}, false},
		{"edit", map[string]any{"path": "a", "edits": []any{map[string]any{"oldText": "", "newText": "y"}}}, false},
		{"edit", map[string]any{"path": "a", "oldText": "x", "newText": "y"}, false},
		{"find", map[string]any{"pattern": "*.go", "path": "src", "limit": 5.0}, true},
		{"find", map[string]any{"path": "src"}, false},
		{"grep", map[string]any{"pattern": "x", "glob": "*.go", "ignoreCase": true, "literal": true, "context": 2.0, "limit": 3.0}, true},
		{"grep", map[string]any{"pattern": "x", "context": -1.0}, false},
		{"grep", map[string]any{"pattern": "x", "ignoreCase": "yes"}, false},
		{"fetch", map[string]any{"url": "https://example.com", "format": "text", "maxBytes": 1000.0}, true},
		{"fetch", map[string]any{"url": "https://example.com", "format": "html"}, false},
		{"fetch", map[string]any{"url": "https://example.com", "maxBytes": 0.0}, false},
		{"fetch", map[string]any{}, false},
	}
	for _, tt := range tests {
		if err := set.Validate(tt.tool, tt.args); (err == nil) != tt.ok {
			t.Errorf("Validate(%s, %v) = %v, want ok %v", tt.tool, tt.args, err, tt.ok)
		}
	}
}
