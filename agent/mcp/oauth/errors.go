package oauth

import (
	"errors"
	"fmt"
	"strings"
)

// NeedsLoginError is returned (through the HTTP client, so errors.As finds
// it) when a server needs the user to sign in and the Authorizer may not
// open a browser by itself: no token, a token the server refused and could
// not be refreshed, or a 403 asking for more scope. Its message names the
// command that fixes it; the scope the server asked for is already saved, so
// that login requests it.
type NeedsLoginError struct {
	// Server is the configured server name.
	Server string
	// Scope is the scope the server's challenge asked for, nil when it
	// named none.
	Scope []string
	// Reason says in a few words why, e.g. "no token yet".
	Reason string
}

func (e *NeedsLoginError) Error() string {
	msg := fmt.Sprintf("MCP server %q needs a login (%s): run `steer mcp login %s`", e.Server, e.Reason, shellWord(e.Server))
	if len(e.Scope) > 0 {
		msg += " (it asks for scope " + strings.Join(e.Scope, " ") + ")"
	}
	return msg
}

// ErrTooManyAuthorizations is wrapped by the error of a request that still
// failed authorization after maxAuthorizations browser flows.
var ErrTooManyAuthorizations = errors.New("authorization did not satisfy the server")

// maxAuthorizations bounds the browser flows one request may start
// (2025-11-25 "Step-Up Authorization Flow": retry no more than a few times).
const maxAuthorizations = 3

// TokenError is an OAuth error response of the token endpoint (RFC 6749
// §5.2), e.g. invalid_grant for a refresh token that is no longer valid.
type TokenError struct {
	Code        string
	Description string
}

func (e *TokenError) Error() string {
	if e.Description == "" {
		return "token endpoint: " + e.Code
	}
	return "token endpoint: " + e.Code + ": " + e.Description
}

// shellWord quotes name for a command line when it needs it.
func shellWord(name string) string {
	if name != "" && !strings.ContainsAny(name, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return name
	}
	return "'" + strings.ReplaceAll(name, "'", `'\''`) + "'"
}
