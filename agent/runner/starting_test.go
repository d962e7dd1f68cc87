package runner

import (
	"errors"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestStartingModel(t *testing.T) {
	providers := []Provider{
		{Name: "anthropic", Models: []agent.Model{{Provider: "anthropic", ID: "claude"}}, Unusable: "ANTHROPIC_API_KEY is not set"},
		{Name: "openai", Models: []agent.Model{{Provider: "openai", ID: "gpt"}}, Unusable: "OPENAI_API_KEY is not set"},
		{Name: "scripted", Models: []agent.Model{{Provider: "scripted", ID: "echo"}}},
	}
	resolve := func(ref string) (agent.Model, error) { return ResolveModel(providers, ref) }
	for _, tc := range []struct {
		name      string
		ref       string
		chosen    bool
		fallbacks []string
		want      string // the model started on; "" when refused
		noted     bool
		refusal   string // the key the refusal names
	}{
		{name: "usable default", ref: "scripted/echo", want: "scripted/echo"},
		{name: "usable choice", ref: "scripted/echo", chosen: true, fallbacks: []string{"openai/gpt"}, want: "scripted/echo"},
		{name: "unusable default, no fallbacks", ref: "anthropic/claude", refusal: "ANTHROPIC_API_KEY"},
		{name: "unusable default, unusable fallbacks", ref: "anthropic/claude", fallbacks: []string{"openai/gpt"}, refusal: "ANTHROPIC_API_KEY"},
		{name: "unusable default, a usable fallback", ref: "anthropic/claude", fallbacks: []string{"openai/gpt", "nowhere/x", "scripted/echo"},
			want: "scripted/echo", noted: true},
		{name: "an unusable choice is refused whatever the fallbacks", ref: "anthropic/claude", chosen: true,
			fallbacks: []string{"scripted/echo"}, refusal: "ANTHROPIC_API_KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, note, err := StartingModel(tc.ref, tc.chosen, tc.fallbacks, providers, resolve)
			if tc.want == "" {
				var ue *UnusableError
				if !errors.As(err, &ue) || ue.Reason != tc.refusal+" is not set" {
					t.Fatalf("err = %v, want the refusal naming %s", err, tc.refusal)
				}
				return
			}
			if err != nil || m.Ref() != tc.want {
				t.Fatalf("= %s, %v; want %s", m.Ref(), err, tc.want)
			}
			if (note != "") != tc.noted {
				t.Errorf("note = %q, noted %v", note, tc.noted)
			}
		})
	}
	if _, _, err := StartingModel("nowhere/x", false, nil, providers, resolve); err == nil {
		t.Error("an unknown model is accepted")
	}
}
