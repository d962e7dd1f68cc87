// Package oauth signs steer in to remote MCP servers that require OAuth,
// following the MCP authorization specification (2025-06-18 and
// 2025-11-25), and keeps the tokens: one Authorizer per configured HTTP
// server gives the MCP client an http.RoundTripper that sends the bearer
// token, refreshes it, and signs in again when the server asks.
//
// # Wiring
//
// Build an Authorizer per HTTP server (its name, URL, configured `oauth`
// object and a Store in the state directory) and hand its HTTPClient to the
// SDK's transport:
//
//	a, err := oauth.New(oauth.Options{Server: name, URL: url, Client: cfg.OAuth, Store: store, AutoLogin: browserOK})
//	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: a.HTTPClient(base)}
//
// A request the server refuses fails with a *NeedsLoginError whose message
// names `steer mcp login NAME`, unless AutoLogin lets it open the browser
// itself. `steer mcp login NAME` calls Login.
//
// # The flow
//
//   - Discovery, on a 401: the protected-resource metadata (RFC 9728) from
//     the challenge's resource_metadata, else
//     /.well-known/oauth-protected-resource/<path>, else the root
//     /.well-known/oauth-protected-resource; then the first authorization
//     server's metadata, RFC 8414 then OpenID Connect discovery,
//     path-inserted before appended (the SDK's auth.GetAuthServerMetadata).
//     A server without PKCE S256 is refused.
//   - The client: the configured clientId (its secret sent with HTTP Basic,
//     or in the body when the server lists only client_secret_post); else a
//     client ID metadata document where the server supports them and
//     Options.ClientMetadataURL names one (steer hosts none, so this is
//     skipped today); else a client registered before with that server;
//     else dynamic client registration (RFC 7591), stored for next time.
//   - Authorization code with PKCE S256 and a fresh state, checked on
//     return; the scope is the challenge's, else the configured scopes, else
//     the resource's scopes_supported, else none, joined with the scopes
//     saved from earlier challenges and grants; resource (RFC 8707, the
//     server's canonical URL) in the authorization and every token request.
//     The browser ($BROWSER, else xdg-open or open) returns to a listener on
//     127.0.0.1, a random port (the registered one when reusing a client),
//     path /callback, which answers with a small page and closes.
//   - Step-up: a 403 with error="insufficient_scope" authorizes again for
//     the union of scopes; one request starts at most three authorizations.
//   - Refresh: an expired token, or a 401 with a refresh token stored, is
//     refreshed without a prompt; a refresh the server refuses drops the
//     token, and the request then needs a login.
//
// # Storage
//
// The Store writes one file per server (0600, directory 0700, atomically)
// with the registered client, the token and the scopes last asked for. It
// refuses to read a file more open than 0600 and says which chmod fixes it.
// Tokens, codes and secrets are never logged; a configured client secret is
// never written.
//
// Package oauthtest is an authorization server and protected resource on
// loopback for tests of this package and of what wires it in.
package oauth
