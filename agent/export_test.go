package agent

// SetDeliverHook makes Deliver call hook after it has queued an item for the
// active run, with the agent's lock released, so that a test can end the run
// right there.
func SetDeliverHook(a *Agent, hook func()) { a.deliverHook = hook }
