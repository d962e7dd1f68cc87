package runner

import (
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestResolveModel(t *testing.T) {
	providers := []Provider{
		{Name: "scripted", Models: []agent.Model{{Provider: "scripted", ID: "echo"}, {Provider: "scripted", ID: "tiny"}}},
		{Name: "local", Models: []agent.Model{{Provider: "local", ID: "qwen"}, {Provider: "local", ID: "tiny"}}},
	}
	tests := []struct {
		ref     string
		want    string
		wantErr bool
	}{
		{ref: "", want: "scripted/echo"},
		{ref: "scripted/tiny", want: "scripted/tiny"},
		{ref: "local/tiny", want: "local/tiny"},
		{ref: "qwen", want: "local/qwen"},
		{ref: "tiny", wantErr: true},
		{ref: "nope", wantErr: true},
		{ref: "scripted/nope", wantErr: true},
		{ref: "other/echo", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			m, err := ResolveModel(providers, tt.ref)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ResolveModel(%q) = %s, want an error", tt.ref, m.Ref())
				}
				return
			}
			if err != nil || m.Ref() != tt.want {
				t.Fatalf("ResolveModel(%q) = %s, %v; want %s", tt.ref, m.Ref(), err, tt.want)
			}
		})
	}
	if _, err := ResolveModel(nil, ""); err == nil {
		t.Error("no providers resolved to a model")
	}
}
