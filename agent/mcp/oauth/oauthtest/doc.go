// Package oauthtest is an OAuth 2.1 authorization server and an MCP-style
// protected resource on loopback httptest servers, for tests of the oauth
// package and of whatever wires it in: discovery documents, dynamic
// registration, authorization code with PKCE, refresh, resource
// indicators, 401 and insufficient_scope challenges. Every request is
// recorded so tests can check what a client sent and in which order.
//
// It approves every authorization at once, so a "browser" only has to
// follow redirects: Browser does that with an HTTP client, and a $BROWSER
// command can do the same (curl -sL).
package oauthtest
