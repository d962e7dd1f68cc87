package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestSecretNeverPrinted(t *testing.T) {
	cfg := mustLoad(t, `{"providers": {
  "openai": {"profiles": [{"id": "a", "apiKeyEnv": "OPENAI_API_KEY"}, {"id": "b", "apiKey": "`+keyLiteral+`"}]}}}`,
		map[string]string{"OPENAI_API_KEY": keyOpenAI, "ANTHROPIC_API_KEY": keyAnthropic, "OPENROUTER_API_KEY": keyOpenRouter})
	if got := cfg.Providers[0].Profiles[1].Key.Reveal(); got != keyLiteral {
		t.Fatalf("Reveal = %q", got)
	}
	profile := cfg.Providers[0].Profiles[0]
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%10s", "%T %v"} {
		for name, v := range map[string]any{"config": cfg, "*config": *cfg, "profile": profile, "key": profile.Key} {
			out := fmt.Sprintf(verb, v)
			assertNoSecrets(t, name+" "+verb, out)
		}
	}
	if s := fmt.Sprint(profile.Key); s != "***" {
		t.Errorf("Sprint = %q", s)
	}
	if s := fmt.Sprintf("%#v", profile); !strings.Contains(s, `Key:"***"`) {
		t.Errorf("%%#v = %s", s)
	}
	if s := fmt.Sprint(Secret("")); s != "" {
		t.Errorf("empty secret prints %q", s)
	}

	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecrets(t, "json", string(data))
	if !bytes.Contains(data, []byte(`"Key":"***"`)) {
		t.Errorf("json lacks the mask: %.200s", data)
	}

	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		slog.New(h).Info("profile", "key", profile.Key, "profile", profile, "providers", cfg.Providers)
	}
	assertNoSecrets(t, "slog", buf.String())
}
