package failover

import "time"

// Waiting out a cooldown: when no candidate of a request may be tried now,
// one failure must not lock the user out of their only key. If the window
// that ends first is a transient one (rate_limit, overloaded, timeout) and it
// ends within the configured bound, the request waits for it and tries
// again; anything else fails at once, saying until when. The bound is
// auth.maxCooldownWaitSeconds, and it bounds every wait the runner makes for
// a provider, the same-profile retries of DecideRetry included.

// DefaultCooldownWait is the longest wait for a cooldown when the config
// sets none (auth.maxCooldownWaitSeconds).
const DefaultCooldownWait = 60 * time.Second

// MaxCooldownWaits is how many times one request waits for a cooldown: a
// provider that keeps refusing after each window is not waited for again
// and again. A timeout's window is waited once (MaxTimeoutWaits): each
// pass over a stalled chain already costs two idle windows per model.
const (
	MaxCooldownWaits = 3
	MaxTimeoutWaits  = 1
)

// CooldownWaitLimit is the configured bound on waits (Config.CooldownWait):
// nil takes DefaultCooldownWait, and 0 means no wait at all.
func (c Config) CooldownWaitLimit() time.Duration {
	if c.CooldownWait == nil {
		return DefaultCooldownWait
	}
	return max(*c.CooldownWait, 0)
}

// Waiting is one candidate profile of a request that may not be tried now,
// for one model: its ledger window, and, when this request saw the provider
// say to come back sooner than the window (a Retry-After shorter than the
// schedule), that time. A hint shortens the wait, never the ledger's window.
type Waiting struct {
	Profile string
	Model   string // the model the request wants of it, as a ref
	Status  ProfileStatus
	HintEnd time.Time // zero: no hint shorter than the window
}

// ready is when the candidate may be tried again.
func (w Waiting) ready() time.Time {
	if !w.HintEnd.IsZero() && w.HintEnd.Before(w.Status.Until) {
		return w.HintEnd
	}
	return w.Status.Until
}

// WaitFacts are what DecideCooldownWait reads.
type WaitFacts struct {
	// Waiting are the request's candidates that may not be tried now, of
	// every model of its chain. Candidates skipped for good (no key, out
	// of scope) are not among them.
	Waiting []Waiting
	// Available says some candidate may be tried now: nothing to wait for.
	Available    bool
	Waits        int // cooldown waits already made by the request
	TimeoutWaits int // those of them for a timeout's window
	Now          time.Time
}

// CooldownWait is DecideCooldownWait's answer: whether to wait, how long,
// for which candidate (the one whose window ends first), and the rule that
// fired. Soonest is set whenever some candidate is waiting, so that a
// refusal can say until when.
type CooldownWait struct {
	Wait    bool
	Delay   time.Duration
	Soonest Waiting
	Rule    string
}

// WaitTransient reports whether a cooldown for reason r is worth waiting
// for: the provider is busy or slow, not refusing this key or this model.
func WaitTransient(r Reason) bool {
	return r == ReasonRateLimit || r == ReasonOverloaded || r == ReasonTimeout
}

// DecideCooldownWait says whether a request none of whose candidates may be
// tried now waits for the soonest window. It is pure; the rules, in order:
//
//	rule             when                                               wait
//	available        a candidate may be tried now                       no
//	nothing_waits    no candidate is cooling down                       no
//	wait_limit       MaxCooldownWaits waits made already                no
//	timeout_waited   the soonest window is a timeout's, and one was     no
//	                 waited for already (MaxTimeoutWaits)
//	not_transient    the soonest window is a disable, or its reason     no
//	                 is not rate_limit, overloaded or timeout
//	waits_disabled   auth.maxCooldownWaitSeconds is 0                   no
//	beyond_limit     the soonest window ends after the bound            no
//	wait             otherwise                                          until it ends
func DecideCooldownWait(f WaitFacts, cfg Config) CooldownWait {
	var out CooldownWait
	for i, w := range f.Waiting {
		if i == 0 || w.ready().Before(out.Soonest.ready()) {
			out.Soonest = w
		}
	}
	delay := max(out.Soonest.ready().Sub(f.Now), 0)
	switch {
	case f.Available:
		out.Rule = "available"
	case len(f.Waiting) == 0:
		out.Rule = "nothing_waits"
	case f.Waits >= MaxCooldownWaits:
		out.Rule = "wait_limit"
	case out.Soonest.Status.State != StateCooldown || !WaitTransient(out.Soonest.Status.Reason):
		out.Rule = "not_transient"
	case out.Soonest.Status.Reason == ReasonTimeout && f.TimeoutWaits >= MaxTimeoutWaits:
		out.Rule = "timeout_waited"
	case cfg.CooldownWaitLimit() == 0:
		out.Rule = "waits_disabled"
	case delay > cfg.CooldownWaitLimit():
		out.Rule = "beyond_limit"
	default:
		out.Wait, out.Delay, out.Rule = true, delay, "wait"
	}
	return out
}
