package runner

import (
	"context"
	"fmt"
	"slices"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/discover"
)

// The notices of the servers that list their models (Options.Discovery).
const (
	// NoticeDiscoveryFailed: a discovering provider's server could not be
	// listed (it is down, or answers neither API): its models are not
	// offered until it answers. Told once per outage; Data is the
	// discover.Change.
	NoticeDiscoveryFailed NoticeKind = "discovery_failed"
	// NoticeDiscoveryRecovered: the server lists its models again after
	// an outage; Data is the discover.Change.
	NoticeDiscoveryRecovered NoticeKind = "discovery_recovered"
)

// modelShelf is the models a runtime offers: the configured providers', with
// what the servers of the discovering ones list merged in (the
// configuration wins field by field, discover.Merge). It calls only the
// cache, which the process's runtimes share; nil discovers nothing.
type modelShelf struct {
	providers []Provider
	cache     *discover.Cache
}

// Models lists every model: each provider's configured models, filled in
// where its server says more, then those only its server lists. It does no
// IO: the servers' last listings are read, and one older than
// discover.DefaultMaxAge is refreshed in the background.
func (l *modelShelf) Models() []agent.Model {
	l.cache.RefreshStale()
	return l.merged()
}

// merged is Models without the refresh: what resolving reads, which must
// start no listing (who tells an outage may not listen yet).
func (l *modelShelf) merged() []agent.Model {
	var all []agent.Model
	for _, p := range l.providers {
		all = append(all, discover.Merge(p.Models, l.cache.Listed(p.Name))...)
	}
	return all
}

// ModelDiscovered says whether m is offered only because its server lists
// it (the model picker marks it).
func (l *modelShelf) ModelDiscovered(m agent.Model) bool {
	i := slices.IndexFunc(l.providers, func(p Provider) bool { return p.Name == m.Provider })
	return i >= 0 && l.cache.Discovers(m.Provider) && !discover.Has(l.providers[i].Models, m.ID) &&
		discover.Has(l.cache.Listed(m.Provider), m.ID)
}

// RefreshModels lists the discovering providers' servers again and returns
// once they answered, each within discover.DefaultTimeout, or ctx ended
// (/model asks before it opens the picker).
func (l *modelShelf) RefreshModels(ctx context.Context) { l.cache.Refresh(ctx) }

// fill is m with what its server's last listing adds to it (discover.Fill).
func (l *modelShelf) fill(m agent.Model) (agent.Model, bool) {
	return discover.Fill(m, l.cache.Listed(m.Provider))
}

// resolver is base, which knows the configured models, completed with the
// listed ones: a model base finds is filled in from its server's listing,
// and a reference base does not know may name a model only a server lists
// ("provider/id", or an id only one server lists).
func (l *modelShelf) resolver(base func(ref string) (agent.Model, error)) func(ref string) (agent.Model, error) {
	if l.cache == nil {
		return base
	}
	return func(ref string) (agent.Model, error) {
		m, err := base(ref)
		if err == nil {
			m, _ = l.fill(m)
			return m, nil
		}
		var hits []agent.Model
		for _, c := range l.merged() {
			if l.ModelDiscovered(c) && (c.Ref() == ref || c.ID == ref) {
				hits = append(hits, c)
			}
		}
		if len(hits) != 1 {
			return agent.Model{}, err
		}
		return hits[0], nil
	}
}

// modelsListed follows the servers' listings (discover.Cache.Watch): the
// session's model takes what its server now says of it (its context window
// for the guard), and an outage's start and end are told once each.
func (r *Runtime) modelsListed(ch discover.Change) {
	r.settings.refill(r.modelShelf.fill)
	switch {
	case !ch.Report:
	case ch.Err != nil:
		r.notifyData(NoticeDiscoveryFailed, ch.Err.Error(), ch)
	default:
		r.notifyData(NoticeDiscoveryRecovered, fmt.Sprintf("%s lists its models again: %s", ch.Provider, countModels(len(ch.Models))), ch)
	}
}

func countModels(n int) string {
	if n == 1 {
		return "1 model"
	}
	return fmt.Sprintf("%d models", n)
}
