package agent

import "context"

// Pending is input from outside the two queues: the results of sub-agents
// a run started, which must reach that same run (SPEC §7). The loop asks
// Poll at every steering drain point, and Wait when the run would end.
//
// Poll returns what is ready now, without blocking. Wait blocks while more
// is expected and returns it; nil means nothing more is expected (or ctx
// ended) and the run ends. Messages Poll or Wait handed over that an abort
// then kept from being injected go back through Unpoll, in their order, so
// that the source offers them again to the next run: no result is lost
// between polling and injecting (S47). All three are called on the loop's
// goroutine.
type Pending interface {
	Poll() []Message
	Wait(ctx context.Context) []Message
	Unpoll(msgs []Message)
}

// BeforeStop is asked when a run would end with the model's answer: the
// response without tool calls that is the run's last message (never after
// an error, an abort, or input the model did not see, such as the user's
// shell commands). The messages it returns go to the model as the next
// turn's input and the run goes on; none ends it. An abort before they are
// injected drops them, as it drops the loop's own notes: they are the
// hook's word on this run, not the user's input. It is called on the
// loop's goroutine; ctx is the run's.
type BeforeStop func(ctx context.Context, answer Message) []Message
