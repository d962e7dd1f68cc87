package config

import (
	"strings"
	"testing"
	"time"
)

func TestProviderTimeouts(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": keyOpenAI}
	cases := []struct {
		name      string
		provider  string
		idle      time.Duration
		first     time.Duration
		wantError string
	}{
		{"neither: the defaults", `{}`, 0, 0, ""},
		{"both", `{"timeoutSeconds": 120, "firstProgressTimeoutSeconds": 600}`, 120 * time.Second, 10 * time.Minute, ""},
		{"a fraction", `{"firstProgressTimeoutSeconds": 2.5}`, 0, 2500 * time.Millisecond, ""},
		{"negative first window", `{"firstProgressTimeoutSeconds": -1}`, 0, 0,
			"providers.openai.firstProgressTimeoutSeconds: must not be negative, got -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, `{"providers": {"openai": `+c.provider+`}}`)
			cfg, err := load(path, envOf(env), defaultCatalogue)
			if c.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantError) {
					t.Fatalf("error %v, want %q", err, c.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := cfg.Providers[0]
			if p.Timeout != c.idle || p.FirstProgressTimeout != c.first {
				t.Fatalf("windows %v / %v, want %v / %v", p.Timeout, p.FirstProgressTimeout, c.idle, c.first)
			}
		})
	}
}
