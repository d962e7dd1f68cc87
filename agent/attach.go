package agent

// Attach takes a snapshot of the agent and subscribes fn with no event in
// between: onState gets the state every earlier event is folded into, and fn
// gets exactly the events after it, in order. A front end that shows a
// session already under way (switching to a run in the background) renders
// the snapshot and then applies fn's events, never one twice or none lost.
//
// onState runs with the agent's event delivery held: it must return quickly
// and must not call the agent.
func (a *Agent) Attach(onState func(State), fn Subscriber) (unsubscribe func()) {
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	st := a.State()
	a.mu.Lock()
	// As the events tell it: a run whose agent_end is out (fn will see no
	// more of it) is over, though it is still winding down.
	st.Running = a.started
	a.mu.Unlock()
	onState(st)
	return a.Subscribe(fn)
}
