package runner

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard/engines"
)

// newAttemptParts builds r's attempt loop and its use of the ledger, once r
// has its catalog, profile choice, thinking choice, ledger and write
// context: the one place they learn of the rest of the runtime, each
// through a func of its own.
func newAttemptParts(r *Runtime) (*profileLedger, *attempts) {
	opts := r.opts
	l := &profileLedger{ledger: r.ledger, choice: r.choice, cooldowns: opts.Cooldowns, now: opts.Now, log: r.log,
		cleared: func(c CooldownCleared) { r.notifyData(NoticeCooldownCleared, c.Line(), c) },
		running: func() bool {
			r.lane.mu.Lock()
			defer r.lane.mu.Unlock()
			return r.lane.task != nil
		},
		writes: r.writes.ctx}
	if r.store != nil && opts.Rehearsal == "" {
		l.clearStored = r.store.ClearProfile
	}
	sleep := opts.Sleep
	if sleep == nil {
		sleep = agent.Sleep
	}
	a := &attempts{catalog: r.catalog, profiles: l, failover: opts.Failover, now: opts.Now, sleep: sleep, log: r.log,
		resetThinking:      r.thinking.reset,
		timeoutCompactions: func() int { return r.keeper.run.count(engines.CompactTimeout) }}
	return l, a
}
