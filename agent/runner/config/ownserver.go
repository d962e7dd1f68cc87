package config

import (
	"slices"

	"charm.land/catwalk/pkg/catwalk"
)

// ownServer reports whether a configured provider is the user's own server
// described in full: its API given, its base URL on the user's network, and
// a name that is no catalogue provider's. The catalogue's endpoints are all
// in the cloud, so no entry can describe it, and its configuration need not
// load the catalogue (~17 ms, the bulk of a `steer run` against a local
// server; issue 16).
func ownServer(name string, p Provider) bool {
	id := catwalk.InferenceProvider(name)
	return p.API != "" && p.SelfHosted() && !slices.Contains(catwalk.KnownProviders(), id) && !slices.Contains(unlistedIDs, id)
}

// unlistedIDs are the catalogue's providers that catwalk.KnownProviders
// leaves out (catwalk v0.52.1); a test keeps the two lists complete.
var unlistedIDs = []catwalk.InferenceProvider{"alibaba-singapore", "alibaba-us", "deepseek", "ionet", "scaleway"}
