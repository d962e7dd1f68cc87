package agent_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestNewToolSet(t *testing.T) {
	tests := []struct {
		name    string
		tools   []agent.Tool
		wantErr string
	}{
		{"distinct tools", []agent.Tool{echoTool("a"), echoTool("b")}, ""},
		{"a duplicate name", []agent.Tool{echoTool("a"), echoTool("a")}, `tool "a" is defined twice`},
		{"a schema that is not JSON", []agent.Tool{funcTool{name: "bad", schema: `{"type":`}}, `tool "bad": schema is not JSON`},
		// Compiled on first use: a set with a broken schema is made, and
		// Validate reports it.
		{"a schema that does not compile", []agent.Tool{funcTool{name: "odd", schema: `{"type":5}`}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := agent.NewToolSet(tt.tools...)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Fatalf("NewToolSet error = %v, want %q", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			for _, tool := range tt.tools {
				if got, ok := set.Lookup(tool.Spec().Name); !ok || got.Spec().Name != tool.Spec().Name {
					t.Errorf("Lookup(%s) = %v, %v", tool.Spec().Name, got, ok)
				}
			}
		})
	}
}

func TestToolSetValidate(t *testing.T) {
	set, err := agent.NewToolSet(echoTool("echo"), funcTool{name: "any"}, funcTool{name: "odd", schema: `{"type":5}`})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool    string
		args    map[string]any
		wantErr string // a part of the error; "" for none
	}{
		{"echo", map[string]any{"text": "hi"}, ""},
		{"echo", map[string]any{}, "invalid arguments for echo"},
		{"echo", map[string]any{"text": 3}, "invalid arguments for echo"},
		{"any", map[string]any{"whatever": []any{1.0}}, ""},
		{"odd", map[string]any{}, `tool "odd": schema does not compile`},
		{"missing", map[string]any{}, `tool "missing" not found`},
	}
	for _, tt := range tests {
		err := set.Validate(tt.tool, tt.args)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("Validate(%s, %v) = %v, want %q", tt.tool, tt.args, err, tt.wantErr)
		}
	}
}

// TestToolSetValidatesInParallel: the tools of a batch validate at once,
// and the first calls compile the schema between them (run with -race).
func TestToolSetValidatesInParallel(t *testing.T) {
	set, err := agent.NewToolSet(echoTool("echo"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = set.Validate("echo", map[string]any{"text": "x"}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
}
