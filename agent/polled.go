package agent

// polled is what the next turn starts with: what one drain point took,
// kept apart by where it came from, so that an abort before the injection
// gives each message back to its source (the queues' items through
// LoopConfig.Unpoll, the Pending's results through Pending.Unpoll), and
// the loop's own notes, which an abort drops.
type polled struct {
	notes    []Message // the loop's (outputLimitNote)
	queued   []Message // from PollSteering or PollFollowUps
	external []Message // from Pending.Poll or Pending.Wait
}

func (p polled) empty() bool { return len(p.notes)+len(p.queued)+len(p.external) == 0 }

// messages is the order of injection: notes, queued input, then the results.
func (p polled) messages() []Message {
	out := append([]Message(nil), p.notes...)
	return append(append(out, p.queued...), p.external...)
}

// giveBack returns every message to the source it was polled from.
func (p polled) giveBack(cfg LoopConfig) {
	if len(p.queued) > 0 && cfg.Unpoll != nil {
		cfg.Unpoll(p.queued)
	}
	if len(p.external) > 0 && cfg.Pending != nil {
		cfg.Pending.Unpoll(p.external)
	}
}
