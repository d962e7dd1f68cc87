package agent

import (
	"reflect"
	"testing"
)

func TestParsePartialJSON(t *testing.T) {
	tests := []struct {
		raw  string
		want map[string]any
	}{
		{``, map[string]any{}},
		{`{`, map[string]any{}},
		{`{"comm`, map[string]any{}},
		{`{"command"`, map[string]any{}},
		{`{"command":`, map[string]any{}},
		{`{"command": "ls -`, map[string]any{"command": "ls -"}},
		{`{"command": "a\`, map[string]any{"command": "a"}},
		{`{"command": "ls", "limit": 1`, map[string]any{"command": "ls", "limit": float64(1)}},
		{`{"command": "ls", "force": tr`, map[string]any{"command": "ls"}},
		{`{"paths": ["a", "b`, map[string]any{"paths": []any{"a", "b"}}},
		{`{"o": {"k": [1, {"x": "y`, map[string]any{"o": map[string]any{"k": []any{float64(1), map[string]any{"x": "y"}}}}},
		{`{"command": "ls"}`, map[string]any{"command": "ls"}},
		{`not json`, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			if got := ParsePartialJSON(tt.raw); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParsePartialJSON(%q) = %#v, want %#v", tt.raw, got, tt.want)
			}
		})
	}
}

func FuzzParsePartialJSON(f *testing.F) {
	f.Add(`{"a": [1, "b", {"c": null}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		if ParsePartialJSON(raw) == nil {
			t.Fatal("nil map")
		}
	})
}
