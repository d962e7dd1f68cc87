package runner

// ErrNoOneCanAnswer is why an approval is refused once the front end that
// answered them is gone (the input of steer rpc ended): the tool is not
// run, and its result says so.
var ErrNoOneCanAnswer = errNoOneCanAnswer{}

type errNoOneCanAnswer struct{}

func (errNoOneCanAnswer) Error() string {
	return "no one can answer: the input that answers approvals has ended"
}

// RefuseApprovals refuses, from now on, every approval request of this
// runtime and of its sub-agents with ErrNoOneCanAnswer: those waiting now
// and those to come. A front end calls it when it can no longer answer, so
// that a run waiting for an answer ends instead of waiting for ever.
func (k *approvalDesk) RefuseApprovals() {
	k.answersChildren.Store(false) // a sub-agent started from now on asks no one
	k.approvals.refuse(ErrNoOneCanAnswer)
	for _, c := range k.subs.all() {
		c.RefuseApprovals()
	}
}

// refuse makes why the answer to every request, waiting or to come.
func (a *approvals) refuse(why error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.why != nil {
		return
	}
	a.why = why
	if a.gone != nil {
		close(a.gone)
	}
}

// refusal is why requests are refused (set once gone is closed).
func (a *approvals) refusal() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.why
}
