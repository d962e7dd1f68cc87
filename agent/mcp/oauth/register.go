package oauth

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// ClientConfig is a server's configured OAuth client, the `oauth` object of
// Claude Code's server configuration: a client registered with the
// authorization server beforehand.
type ClientConfig struct {
	// ClientID is the pre-registered client identifier.
	ClientID string `json:"clientId"`
	// ClientSecret makes it a confidential client; it is sent as HTTP
	// Basic or in the body, as the server's
	// token_endpoint_auth_methods_supported allows.
	ClientSecret string `json:"clientSecret,omitempty"`
	// Scopes are requested in every authorization, besides those the
	// server's challenge asks for.
	Scopes []string `json:"scopes,omitempty"`
}

// client is the client one authorization uses.
type client struct {
	tokenClient
	// Via says how it was obtained, for the log: "configured",
	// "metadata document" or "registered".
	Via string
	// Registered is set when the client came from dynamic registration and
	// must be stored.
	Registered *RegisteredClient
}

// secretAuthMethod picks how a configured secret is sent: HTTP Basic when
// the server allows it (RFC 8414 §2 makes it the default when the server
// lists nothing; OAuth 2.1 requires servers to support it), else in the
// body.
func secretAuthMethod(supported []string) (string, error) {
	switch {
	case len(supported) == 0, slices.Contains(supported, authBasic):
		return authBasic, nil
	case slices.Contains(supported, authPost):
		return authPost, nil
	}
	return "", fmt.Errorf("the authorization server accepts a client secret neither as client_secret_basic nor as client_secret_post (it lists %v)", supported)
}

// resolveClient chooses the client in the order of 2025-11-25 "Client
// Registration Approaches": the configured one; a client ID metadata
// document when the server supports them and steer has one (metadataURL,
// which must be an HTTPS URL serving the document; steer hosts none today,
// so by default this step is skipped); a client registered before with
// this authorization server for this redirect URI; a new dynamic
// registration (RFC 7591).
func resolveClient(ctx context.Context, hc *http.Client, as *oauthex.AuthServerMeta, cfg *ClientConfig, metadataURL, clientName string, stored *RegisteredClient, redirectURI string, now time.Time) (client, error) {
	tokenURL := as.TokenEndpoint
	if cfg != nil && cfg.ClientID != "" {
		c := client{tokenClient: tokenClient{Endpoint: tokenURL, ClientID: cfg.ClientID, AuthMethod: authNone}, Via: "configured"}
		if cfg.ClientSecret != "" {
			m, err := secretAuthMethod(as.TokenEndpointAuthMethodsSupported)
			if err != nil {
				return client{}, err
			}
			c.Secret, c.AuthMethod = cfg.ClientSecret, m
		}
		return c, nil
	}
	if metadataURL != "" && as.ClientIDMetadataDocumentSupported {
		return client{tokenClient: tokenClient{Endpoint: tokenURL, ClientID: metadataURL, AuthMethod: authNone}, Via: "metadata document"}, nil
	}
	if stored != nil && stored.Issuer == as.Issuer && stored.RedirectURI == redirectURI &&
		(stored.SecretExpiry.IsZero() || now.Before(stored.SecretExpiry)) {
		return client{tokenClient: tokenClient{Endpoint: tokenURL, ClientID: stored.ClientID, Secret: stored.ClientSecret, AuthMethod: stored.AuthMethod}, Via: "registered"}, nil
	}
	if as.RegistrationEndpoint == "" {
		return client{}, errNoRegistration
	}
	resp, err := oauthex.RegisterClient(ctx, as.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		RedirectURIs:            []string{redirectURI},
		TokenEndpointAuthMethod: authNone,
		GrantTypes:              []string{grantCode, grantRenew},
		ResponseTypes:           []string{"code"},
		ClientName:              clientName,
		ApplicationType:         "native",
	}, hc)
	if err != nil {
		return client{}, fmt.Errorf("dynamic client registration at %s: %w", as.RegistrationEndpoint, err)
	}
	method := resp.TokenEndpointAuthMethod
	if method == "" {
		// RFC 7591 §2: an omitted method means client_secret_basic, which
		// only makes sense with a secret.
		method = authNone
		if resp.ClientSecret != "" {
			method = authBasic
		}
	}
	reg := &RegisteredClient{
		Issuer: as.Issuer, ClientID: resp.ClientID, ClientSecret: resp.ClientSecret,
		AuthMethod: method, RedirectURI: redirectURI, SecretExpiry: resp.ClientSecretExpiresAt,
	}
	return client{
		tokenClient: tokenClient{Endpoint: tokenURL, ClientID: reg.ClientID, Secret: reg.ClientSecret, AuthMethod: method},
		Via:         "registered", Registered: reg,
	}, nil
}
