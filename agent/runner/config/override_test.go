package config

import (
	"errors"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
)

func TestApproval(t *testing.T) {
	tests := []struct {
		name     string
		flag     tools.Mode
		file     tools.Mode
		terminal bool
		want     tools.Mode
	}{
		{"the flag wins", tools.ModeAuto, tools.ModeAsk, true, tools.ModeAuto},
		{"then the file", "", tools.ModeAuto, true, tools.ModeAuto},
		{"ask where a person answers", "", "", true, tools.ModeAsk},
		{"auto headless", "", "", false, tools.ModeAuto},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Config{Tools: ToolSettings{Approval: tt.file}}
			if got := c.Approval(tt.flag, tt.terminal); got != tt.want {
				t.Errorf("Approval(%q, %v) = %q, want %q", tt.flag, tt.terminal, got, tt.want)
			}
		})
	}
}

func TestRunTimeout(t *testing.T) {
	c := &Config{Agent: AgentSettings{Timeout: time.Hour}}
	if got := c.RunTimeout(time.Minute); got != time.Minute {
		t.Errorf("with --timeout: %s", got)
	}
	if got := c.RunTimeout(0); got != time.Hour {
		t.Errorf("without: %s", got)
	}
}

func TestEndpointHasTheFirstUsableKey(t *testing.T) {
	p := Provider{BaseURL: "https://x.example/v1", Timeout: time.Second, Headers: map[string]string{"X": "1"},
		Profiles: []Profile{{ID: "x:a", Unusable: "A is not set"}, {ID: "x:b", Key: keyOpenAI}, {ID: "x:c", Key: keyOpenAI2}}}
	e := p.Endpoint()
	if e.BaseURL != p.BaseURL || e.APIKey != keyOpenAI || e.IdleTimeout != time.Second || e.Headers["X"] != "1" {
		t.Errorf("Endpoint() = %+v", e)
	}
	if e := (Provider{Profiles: []Profile{{ID: "x:a", Unusable: "A is not set"}}}).Endpoint(); e.APIKey != "" {
		t.Errorf("no usable profile: key %q", e.APIKey)
	}
}

func TestResolverLeavesScriptedToTheBuiltin(t *testing.T) {
	cfg := mustLoad(t, `{"providers": {"local": {"api": "openai-chat", "baseURL": "http://127.0.0.1:8080/v1",
		"models": [{"id": "m"}]}}}`, nil)
	builtin := func(ref string) (agent.Model, error) {
		if ref == "" || ref == "scripted/echo" || ref == "extra" {
			return agent.Model{Provider: "builtin", ID: ref}, nil
		}
		return agent.Model{}, errors.New("builtin knows no " + ref)
	}
	resolve := cfg.Resolver(builtin)
	for ref, want := range map[string]string{"": "builtin", "scripted/echo": "builtin", "local/m": "local", "m": "local", "extra": "builtin"} {
		m, err := resolve(ref)
		if err != nil || m.Provider != want {
			t.Errorf("resolve(%q) = %s, %v; want from %s", ref, m.Provider, err, want)
		}
	}
	if _, err := resolve("nope/x"); err == nil || err.Error() == "builtin knows no nope/x" {
		t.Errorf("resolve(nope/x) = %v, want the configuration's error", err)
	}
}
