package main

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/discover"
)

// discoveryFor is the listing of the models of the providers whose servers
// list them ("discover": true), shared by the process's sessions; nil when
// no provider discovers. A model a server lists is described first as the
// configuration knows its id (config.Config.ModelOf: the catalogue's
// metadata, when it has the id).
func discoveryFor(cfg *config.Config) *discover.Cache {
	var servers []discover.Server
	for _, p := range cfg.Providers {
		if !p.Discover {
			continue
		}
		servers = append(servers, discover.Server{Provider: p.Name, BaseURL: p.BaseURL, APIKey: p.Endpoint().APIKey, Headers: p.Headers,
			Describe: func(id string) agent.Model {
				m, _ := cfg.ModelOf(p, id)
				return m
			}})
	}
	if servers == nil {
		return nil
	}
	return discover.NewCache(servers, discover.Options{})
}
