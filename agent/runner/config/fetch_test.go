package config

import (
	"strings"
	"testing"
)

// TestFetchSettings: tools.fetch.allowPrivate is off by default, set by
// any applied layer (a higher one wins), not by an untrusted project, and
// refused when it is not a boolean or is misspelt.
func TestFetchSettings(t *testing.T) {
	const allow = `{"tools": {"fetch": {"allowPrivate": true}}}`
	for _, tc := range []struct {
		name, global, project string
		trusted               bool
		want                  bool
		err                   string
	}{
		{name: "off by default", global: `{}`},
		{name: "the global file allows", global: allow, want: true},
		{name: "a trusted project allows", global: `{}`, project: allow, trusted: true, want: true},
		{name: "an untrusted project does not", global: `{}`, project: allow},
		{name: "a higher layer turns it off", global: allow, project: `{"tools": {"fetch": {"allowPrivate": false}}}`, trusted: true},
		{name: "not a boolean", global: `{"tools": {"fetch": {"allowPrivate": "yes"}}}`, err: "tools.fetch.allowPrivate"},
		{name: "misspelt", global: `{"tools": {"fetch": {"allowPrivates": true}}}`, err: "allowPrivates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := layered(t, tc.global, tc.project, "", tc.trusted)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Tools.Fetch.AllowPrivate != tc.want {
				t.Errorf("allowPrivate = %v, want %v", c.Tools.Fetch.AllowPrivate, tc.want)
			}
		})
	}
}
