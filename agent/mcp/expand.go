package mcp

import (
	"fmt"
	"maps"
	"strings"
)

// Expand replaces ${VAR} and ${VAR:-default} in s with env's values, as
// Claude Code does: the default is used when VAR is unset or empty. A
// variable that is unset with no default is an error naming it. used gets
// every value put in, for redaction.
func Expand(s string, env func(string) string, used *[]string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed ${ in %q", cut(s[i:]))
		}
		b.WriteString(s[:i])
		ref := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(ref, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("${%s}: not a variable name", ref)
		}
		v := env(name)
		switch {
		case v == "" && hasDef:
			v = def
		case v == "":
			return "", fmt.Errorf("%s is not set", name)
		}
		if v != "" && used != nil {
			*used = append(*used, v)
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

// cut shortens a piece of configuration for an error message.
func cut(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// expanded is a server's configuration with every ${VAR} replaced, and
// the values that must not be shown: every value put in, every header
// value whole (they carry tokens), and the env values whose names say
// they are secret.
type expanded struct {
	Config
	secrets []string
}

// expand expands c's env, headers and url.
func expand(c Config, env func(string) string) (expanded, error) {
	out := expanded{Config: c}
	var err error
	if out.URL, err = Expand(c.URL, env, &out.secrets); err != nil {
		return out, fmt.Errorf("url: %w", err)
	}
	if out.Env, err = expandMap(c.Env, env, &out.secrets); err != nil {
		return out, fmt.Errorf("env: %w", err)
	}
	if out.Headers, err = expandMap(c.Headers, env, &out.secrets); err != nil {
		return out, fmt.Errorf("headers: %w", err)
	}
	for _, v := range out.Headers {
		out.secrets = append(out.secrets, v)
	}
	if c.OAuth != nil && c.OAuth.ClientSecret != "" {
		out.secrets = append(out.secrets, c.OAuth.ClientSecret)
	}
	for k, v := range out.Env {
		if secretName(k) {
			out.secrets = append(out.secrets, v)
		}
	}
	return out, nil
}

func expandMap(m map[string]string, env func(string) string, used *[]string) (map[string]string, error) {
	if m == nil {
		return nil, nil
	}
	out := maps.Clone(m)
	for k, v := range m {
		x, err := Expand(v, env, used)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = x
	}
	return out, nil
}

// redactor hides a server's secrets in what it shows.
type redactor []string

// clean is s with every secret of at least 4 bytes replaced by "***":
// shorter values ("1", "on") are too common to be secrets worth mangling
// every message for.
func (r redactor) clean(s string) string {
	for _, v := range r {
		if len(v) >= 4 {
			s = strings.ReplaceAll(s, v, "***")
		}
	}
	return s
}

// secretName reports whether an env variable's name says it holds a
// secret.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CREDENTIAL", "COOKIE"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
