package tools

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestIsSecretEnv(t *testing.T) {
	secret := []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "openrouter_api_key", "API_KEY", "MISTRAL_APIKEY",
		"GITHUB_TOKEN", "HF_TOKEN", "AWS_SESSION_TOKEN", "AWS_SECRET_ACCESS_KEY", "DJANGO_SECRET_KEY",
		"CLIENT_SECRET", "DB_PASSWORD", "MYSQL_PASSWD", "SSH_PRIVATE_KEY", "TOKEN"}
	plain := []string{"PATH", "HOME", "MAX_TOKENS", "TOKENIZER", "SECRETS_DIR", "TOKEN_URL", "PASSWORD_FILE",
		"KEYBOARD", "GPG_KEY_ID", "MYTOKEN", ""}
	for _, n := range secret {
		if !IsSecretEnv(n) {
			t.Errorf("IsSecretEnv(%q) = false, want true", n)
		}
	}
	for _, n := range plain {
		if IsSecretEnv(n) {
			t.Errorf("IsSecretEnv(%q) = true, want false", n)
		}
	}
}

// TestBashHidesSecrets: `run env` shows neither the variables a profile
// reads its key from (passed to WithHiddenEnv) nor those named like
// secrets, and keeps the rest of the environment.
func TestBashHidesSecrets(t *testing.T) {
	secrets := map[string]string{
		"ANTHROPIC_API_KEY":     "sk-ant-leak-0001",
		"OPENAI_API_KEY":        "sk-leak-0002",
		"GITHUB_TOKEN":          "ghp_leak0003",
		"AWS_SECRET_ACCESS_KEY": "aws-leak-0004",
		"DB_PASSWORD":           "hunter2-leak-0005",
		"CLIENT_SECRET":         "client-leak-0006",
		"MY_LLM_KEY":            "custom-leak-0007", // a profile's apiKeyEnv
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("STEER_TEST_VISIBLE", "still-here")
	t.Setenv("MAX_TOKENS", "4096")

	var bash agent.Tool
	for _, tool := range New(t.TempDir(), WithHiddenEnv("MY_LLM_KEY")) {
		if tool.Spec().Name == "bash" {
			bash = tool
		}
	}
	got := text(execute(t, bash, map[string]any{"command": "env"}))
	for k, v := range secrets {
		if strings.Contains(got, k) || strings.Contains(got, v) {
			t.Errorf("env shows %s", k)
		}
	}
	for _, want := range []string{"STEER_TEST_VISIBLE=still-here", "MAX_TOKENS=4096", "PATH="} {
		if !strings.Contains(got, want) {
			t.Errorf("env lacks %s:\n%s", want, got)
		}
	}
}
