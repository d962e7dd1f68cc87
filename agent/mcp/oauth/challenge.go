package oauth

import (
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// challenge is what a 401 or 403 told us in its Bearer WWW-Authenticate
// challenge (RFC 6750 §3, RFC 9728 §5.1).
type challenge struct {
	// ResourceMetadata is the resource_metadata URL, "" when absent.
	ResourceMetadata string
	// Scope is the scope parameter split on spaces, nil when absent.
	Scope []string
	// Error is the error parameter, e.g. "insufficient_scope".
	Error string
}

// parseChallenge reads the Bearer challenge of resp. A header that does not
// parse yields an empty challenge: discovery then falls back to the
// well-known URLs, which is what the spec asks when the header says nothing.
func parseChallenge(h http.Header) challenge {
	cs, err := oauthex.ParseWWWAuthenticate(h.Values("WWW-Authenticate"))
	if err != nil {
		return challenge{}
	}
	var c challenge
	for _, ch := range cs {
		if ch.Scheme != "bearer" {
			continue
		}
		c.ResourceMetadata = ch.Params["resource_metadata"]
		c.Scope = strings.Fields(ch.Params["scope"])
		c.Error = ch.Params["error"]
		break
	}
	return c
}

// insufficientScope reports whether a 403 asks for a step-up.
func (c challenge) insufficientScope() bool { return c.Error == "insufficient_scope" }

// selectScopes is the MCP scope selection strategy (2025-11-25 "Scope
// Selection Strategy") with steer's additions: the challenge's scope is
// authoritative for the current request, else the configured scopes, else
// the resource's scopes_supported, else none (the scope parameter is then
// omitted). Configured and saved scopes (the last challenge's, the last
// grant's) are added to whatever was chosen, so a step-up never loses what
// was granted before. The order is stable: first seen first.
func selectScopes(challenged, configured, supported, saved []string) []string {
	base := challenged
	if len(base) == 0 {
		base = configured
	}
	if len(base) == 0 {
		base = supported
	}
	return union(base, configured, saved)
}

// union joins scope lists without duplicates, keeping first-seen order.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}
