package config

import (
	"errors"
	"strings"
	"testing"
)

func TestLoadErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/nowhere")
	env := map[string]string{"OPENAI_API_KEY": keyOpenAI, "ANTHROPIC_API_KEY": keyAnthropic}
	tests := []struct {
		name string
		body string
		env  map[string]string // nil means env
		want string            // FILE stands for the path
	}{
		{"unknown key with suggestion", `{
  "providers": {
    "openai": {
      "api": "openai-chat",
      "baseUrl": "https://api.openai.com/v1"
    }
  }
}`, nil, `FILE:5: unknown key "providers.openai.baseUrl" (did you mean "baseURL"?)`},
		{"unknown top-level key", `{
  "modle": "openai/gpt-4.1"
}`, nil, `FILE:2: unknown key "modle" (did you mean "model"?)`},
		{"unknown key without suggestion", `{"agent": {"colour": "red"}}`, nil,
			`FILE:1: unknown key "agent.colour" (known: timeoutSeconds, thinking, maxConcurrent, contextEngine, steeringMode, followUpMode, maxInputBytes)`},
		{"unknown key in a model", `{"providers": {"openai": {
  "models": [
    {"id": "gpt-4.1"},
    {"id": "o3", "context_window": 5}
  ]}}}`, nil, `FILE:4: unknown key "providers.openai.models[1].context_window" (did you mean "contextWindow"?)`},
		{"duplicate key", "{\n  \"model\": \"a\",\n  \"model\": \"b\"\n}", nil, `FILE:3: duplicate key "model"`},
		// A byte order mark is dropped and counts for no line.
		{"unknown key after a BOM", "\uFEFF{\n  \"modle\": \"openai/gpt-4.1\"\n}", nil,
			`FILE:2: unknown key "modle" (did you mean "model"?)`},
		{"syntax error after a BOM", "\uFEFF{\n  \"model\": \"a\",\n  ,\n}", nil,
			`FILE:3: invalid JSON: invalid character ',' looking for beginning of object key string`},
		{"wrong type", "{\n  \"model\": 3\n}", nil, `FILE:2: model: want a string, got a number`},
		{"wrong type in an array", "{\n  \"fallbacks\": [\"openai/gpt-4.1\",\n    true]\n}", nil,
			`FILE:3: fallbacks[1]: want a string, got a boolean`},
		{"wrong type object", `{"providers": []}`, nil, `FILE:1: providers: want an object, got an array`},
		{"fraction for a whole number", "{\"providers\": {\"openai\": {\"models\": [\n{\"id\": \"x\", \"contextWindow\": 1.5}]}}}", nil,
			`FILE:2: providers.openai.models[0].contextWindow: want a whole number, got 1.5`},
		{"syntax error", "{\n  \"model\": \"a\",\n  }\n", nil,
			`FILE:3: invalid JSON: invalid character '}' looking for beginning of object key string`},
		{"truncated", "{\n  \"model\": \"a\",\n", nil, `FILE:3: invalid JSON: unexpected end of file`},
		{"empty file", "", nil, `FILE:1: invalid JSON: unexpected end of file`},
		{"not an object", "[1]", nil, `FILE:1: want a JSON object at the top level, got an array`},
		{"trailing data", "{}\n{}", nil, `FILE:2: invalid JSON: unexpected data after the top-level value`},
		{"bad api", "{\"providers\": {\n  \"x\": {\n    \"api\": \"grpc\"}}}", nil,
			`FILE:3: providers.x.api: unknown api "grpc" (want openai-chat, anthropic-messages or scripted)`},
		{"missing api", "{\"providers\": {\n  \"x\": {\"baseURL\": \"https://x.example/v1\"}}}", nil,
			`FILE:2: providers.x: "api" is required (openai-chat, anthropic-messages or scripted)`},
		{"missing baseURL", "{\"providers\": {\n  \"x\": {\"api\": \"openai-chat\"}}}", nil,
			`FILE:2: providers.x: "baseURL" is required: steer knows no endpoint for provider "x"`},
		{"bad URL scheme", "{\"providers\": {\"x\": {\"api\": \"openai-chat\",\n  \"baseURL\": \"ftp://user:pw@host/v1\"}}}", nil,
			`FILE:2: providers.x.baseURL: "ftp://user:xxxxx@host/v1" is not an http(s) URL`},
		{"URL without host", `{"providers": {"x": {"api": "openai-chat", "baseURL": "localhost:8080"}}}`, nil,
			`FILE:1: providers.x.baseURL: "localhost:8080" is not an http(s) URL`},
		{"negative timeout", `{"providers": {"openai": {"timeoutSeconds": -1}}}`, nil,
			`FILE:1: providers.openai.timeoutSeconds: must not be negative, got -1`},
		{"no conventional key", "{\"providers\": {\n  \"corp\": {\"api\": \"openai-chat\", \"baseURL\": \"https://llm.corp.example/v1\"}}}", nil,
			`FILE:2: providers.corp: no API key: add a profile with "apiKeyEnv" (the variable holding the key) or "apiKey"`},
		{"key pasted into apiKeyEnv", `{"providers": {"openai": {"profiles": [{"apiKeyEnv": "` + keyOpenAI + `"}]}}}`, nil,
			`FILE:1: providers.openai.profiles[0].apiKeyEnv: must name an environment variable (letters, digits and _); a key itself goes in "apiKey"`},
		{"both key forms", `{"providers": {"openai": {"profiles": [{"apiKeyEnv": "OPENAI_API_KEY", "apiKey": "` + keyLiteral + `"}]}}}`, nil,
			`FILE:1: providers.openai.profiles[0]: give "apiKeyEnv" or "apiKey", not both`},
		{"profile without key", `{"providers": {"openai": {"profiles": [{"id": "openai:x"}]}}}`, nil,
			`FILE:1: providers.openai.profiles[0]: needs "apiKeyEnv" (the variable holding the key) or "apiKey"`},
		{"duplicate profile id", "{\"providers\": {\"openai\": {\"profiles\": [{\"id\": \"p\", \"apiKey\": \"k\"},\n {\"id\": \"p\", \"apiKey\": \"k\"}]}}}", nil,
			`FILE:2: providers.openai.profiles[1]: profile id "p" is already used by provider openai`},
		{"model without id", `{"providers": {"openai": {"models": [{"name": "x"}]}}}`, nil,
			`FILE:1: providers.openai.models[0]: "id" is required`},
		{"zero context window", `{"providers": {"openai": {"models": [{"id": "x", "contextWindow": 0}]}}}`, nil,
			`FILE:1: providers.openai.models[0].contextWindow: must be greater than 0, got 0`},
		{"negative max output", `{"providers": {"openai": {"models": [{"id": "x", "maxOutput": -5}]}}}`, nil,
			`FILE:1: providers.openai.models[0].maxOutput: must be greater than 0, got -5`},
		{"bad input kind", `{"providers": {"openai": {"models": [{"id": "x", "input": ["text", "audio"]}]}}}`, nil,
			`FILE:1: providers.openai.models[0].input[1]: unknown input kind "audio" (want text or image)`},
		{"provider name with slash", `{"providers": {"a/b": {"api": "scripted"}}}`, nil,
			`FILE:1: providers["a/b"]: a provider name must be non-empty and cannot contain "/"`},
		{"unknown model", "{\n  \"model\": \"openai/gpt-9\"\n}", nil,
			`FILE:2: model: unknown model "openai/gpt-9": provider openai has gpt-5.6-sol, gpt-5.6-terra, gpt-5.6-luna, gpt-5.5, gpt-5.5-pro, gpt-5.4, gpt-5.4-pro, gpt-5.4-mini, gpt-5.4-nano, gpt-5.3-codex, gpt-5.2, gpt-5.2-codex, … (16 more)`},
		{"unknown provider in model", "{\"model\": \"mistral/large\"}", nil,
			`FILE:1: model: unknown provider "mistral" in "mistral/large" (known: anthropic, openai, scripted)`},
		{"unknown fallback", "{\"fallbacks\": [\"scripted/echo\",\n  \"scripted/huge\"]}", map[string]string{},
			`FILE:2: fallbacks[1]: unknown model "scripted/huge": provider scripted has echo, tiny`},
		{"unknown bare model", "{\"model\": \"qwen\"}", map[string]string{},
			`FILE:1: model: unknown model "qwen" (known: scripted/echo, scripted/tiny)`},
		{"unknown alias target", "{\"aliases\": {\n  \"fast\": \"scripted/zoom\"}}", map[string]string{},
			`FILE:2: aliases.fast: unknown model "scripted/zoom": provider scripted has echo, tiny`},
		{"alias of an alias", "{\"aliases\": {\"a\": \"scripted/echo\",\n  \"b\": \"a\"}}", map[string]string{},
			`FILE:2: aliases.b: "a" is another alias; an alias must name a provider/model`},
		{"ambiguous model", `{"providers": {"a": {"api": "scripted"}}, "model": "echo"}`, map[string]string{},
			`FILE:1: model: model "echo" is offered by several providers (a/echo, scripted/echo); write provider/model`},
		{"bad thinking level", "{\"agent\": {\n  \"thinking\": \"max\"}}", nil,
			`FILE:2: agent.thinking: unknown thinking level "max" (want off, minimal, low, medium, high or xhigh)`},
		{"bad model thinking level", `{"providers": {"local": {"api": "scripted", "models": [{"id": "q"}, {"id": "r", "thinking": "max"}]}}}`, nil,
			`FILE:1: providers.local.models[1].thinking: unknown thinking level "max" (want off, minimal, low, medium, high or xhigh)`},
		{"bad steering mode", `{"agent": {"steeringMode": "batch"}}`, nil,
			`FILE:1: agent.steeringMode: unknown mode "batch" (want one-at-a-time or all)`},
		{"bad follow-up mode", `{"agent": {"followUpMode": "All"}}`, nil,
			`FILE:1: agent.followUpMode: unknown mode "All" (want one-at-a-time or all)`},
		{"negative agent timeout", `{"agent": {"timeoutSeconds": -3}}`, nil, `FILE:1: agent.timeoutSeconds: must not be negative, got -3`},
		{"negative maxConcurrent", `{"agent": {"maxConcurrent": -1}}`, nil, `FILE:1: agent.maxConcurrent: must not be negative, got -1`},
		{"negative cooldown wait", `{"auth": {"maxCooldownWaitSeconds": -1}}`, nil, `FILE:1: auth.maxCooldownWaitSeconds: must not be negative, got -1`},
		{"negative session budget", `{"budget": {"session": -0.5}}`, nil, `FILE:1: budget.session: must not be negative, got -0.5`},
		{"negative run tokens", `{"budget": {"runTokens": -10}}`, nil, `FILE:1: budget.runTokens: must not be negative, got -10`},
		{"budget in words", `{"budget": {"run": "lots"}}`, nil, `FILE:1: budget.run: want a number, got a string`},
		{"unknown context engine", `{"agent": {"contextEngine": "notez"}, "contextEngines": {"notes": {"command": ["x"]}}}`, nil,
			`FILE:1: agent.contextEngine: unknown context engine "notez" (known: legacy, notes)`},
		{"engine without command", "{\"contextEngines\": {\n  \"notes\": {\"command\": []}}}", nil,
			`FILE:2: contextEngines.notes: "command" is required, e.g. ["python3", "engine.py"]`},
		{"negative cooldown", "{\"auth\": {\"cooldowns\": {\n  \"billingMaxHours\": -24}}}", nil,
			`FILE:2: auth.cooldowns.billingMaxHours: must not be negative, got -24`},
		{"bad approval", "{\"tools\": {\"approval\": \"yolo\"}}", nil, `FILE:1: tools.approval: unknown approval mode "yolo" (want ask, auto, never, plan)`},
		{"zero maxInputBytes", "{\"agent\": {\n  \"maxInputBytes\": 0}}", nil, `FILE:2: agent.maxInputBytes: must be greater than 0, got 0`},
		{"negative maxInputBytes", `{"agent": {"maxInputBytes": -1}}`, nil, `FILE:1: agent.maxInputBytes: must be greater than 0, got -1`},
		{"bad theme", "{\"ui\": {\n  \"theme\": \"solarized\"}}", nil, `FILE:2: ui.theme: unknown theme "solarized" (want dark, light, auto or the name of a file in /nowhere/steer/themes)`},
		{"unknown ui key", `{"ui": {"colour": "dark"}}`, nil, `FILE:1: unknown key "ui.colour" (known: theme, notifications, syncOutput, plain)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := env
			if tt.env != nil {
				e = tt.env
			}
			path := writeConfig(t, tt.body)
			_, err := load(path, envOf(e), defaultCatalogue)
			if err == nil {
				t.Fatal("no error")
			}
			want := strings.ReplaceAll(tt.want, "FILE", path)
			if err.Error() != want {
				t.Errorf("error\n got: %s\nwant: %s", err, want)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.File != path {
				t.Errorf("not a *Error naming the file: %#v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Error("error spans several lines")
			}
			assertNoSecrets(t, "error", err.Error())
		})
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"baseURL", "timeoutSeconds", "api", "models"}
	for in, want := range map[string]string{"baseUrl": "baseURL", "baseurl": "baseURL", "modles": "models", "apk": "api",
		"timeout": "", "xyz": "", "mdl": ""} {
		if got := suggest(in, keys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}
