package config

import (
	"fmt"
	"log/slog"
	"slices"
)

// Secret is an API key. Every way of printing it — fmt verbs, JSON, slog —
// renders "***" (or nothing when empty), so a key cannot end up in a log, an
// error or --json output by accident; Reveal is the one way to read it, for
// the provider constructor.
type Secret string

const redacted = "***"

// Reveal returns the key itself.
func (s Secret) Reveal() string { return string(s) }

func (s Secret) masked() string {
	if s == "" {
		return ""
	}
	return redacted
}

// String renders "***".
func (s Secret) String() string { return s.masked() }

// GoString renders "***" quoted, for %#v.
func (s Secret) GoString() string { return fmt.Sprintf("%q", s.masked()) }

// Format renders "***" whatever the verb, so %x or %q cannot reveal it.
func (s Secret) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'), verb == 'q':
		fmt.Fprint(f, s.GoString())
	default:
		fmt.Fprint(f, s.masked())
	}
}

// MarshalJSON renders "***".
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + s.masked() + `"`), nil }

// MarshalText renders "***", for encoders that prefer text.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.masked()), nil }

// LogValue renders "***" in slog records.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.masked()) }

// SecretEnvNames lists, sorted and once each, the environment variables that
// hold keys: every variable a configured profile reads (set or not), and the
// conventional ANTHROPIC_API_KEY, OPENAI_API_KEY and OPENROUTER_API_KEY even
// when the file configures those providers otherwise. These are the
// variables to hide from the tools' commands.
func (c *Config) SecretEnvNames() []string {
	var names []string
	for _, e := range envProviders {
		names = append(names, e.keyEnv)
	}
	for _, p := range c.Providers {
		for _, pr := range p.Profiles {
			if pr.KeyEnv != "" {
				names = append(names, pr.KeyEnv)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
