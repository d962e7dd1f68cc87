package queue

import "testing"

func TestHead(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc…"},
		{"aé", 2, "a…"}, // é is two bytes: not cut in half
	}
	for _, tt := range tests {
		if got := head(tt.text, tt.n); got != tt.want {
			t.Errorf("head(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}
