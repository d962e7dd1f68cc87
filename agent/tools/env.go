package tools

import (
	"slices"
	"strings"
)

// secretSuffixes are the name endings that mark a variable as holding a
// secret; see IsSecretEnv.
var secretSuffixes = []string{
	"API_KEY", "APIKEY", "PRIVATE_KEY", "SECRET_KEY", "SECRET_ACCESS_KEY",
	"TOKEN", "SECRET", "PASSWORD", "PASSWD",
}

// IsSecretEnv reports whether the environment variable name, by its name
// alone, holds a secret that commands never get: its upper-cased name is, or
// ends with "_" followed by, one of API_KEY, APIKEY, PRIVATE_KEY,
// SECRET_KEY, SECRET_ACCESS_KEY, TOKEN, SECRET, PASSWORD or PASSWD. So
// ANTHROPIC_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY and DB_PASSWORD are
// secret; MAX_TOKENS, TOKENIZER and SECRETS_DIR are not.
func IsSecretEnv(name string) bool {
	upper := strings.ToUpper(name)
	for _, s := range secretSuffixes {
		if upper == s || strings.HasSuffix(upper, "_"+s) {
			return true
		}
	}
	return false
}

// CommandEnv is environ ("NAME=value" entries) without the variables that
// IsSecretEnv names or that hidden holds: the environment of a command
// steer starts (bash, a context engine, a language server), which has no
// use for the user's keys. The result is a slice of its own.
func CommandEnv(environ, hidden []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(hidden, name) || IsSecretEnv(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
