package agent

import (
	"fmt"
	"strings"
	"time"
)

// MaxOutputLimitContinuations bounds how many responses of one run that
// stopped at their output limit in the middle of tool calls go on from the
// complete calls' results (seed: the recovery uses a bounded retry budget);
// past it such a response ends the run as any length stop does.
const MaxOutputLimitContinuations = 3

// keepCalls decides which tool calls of a finalised response are kept, and
// so run. A toolUse batch is kept whole: the provider's stop says its calls
// are (a call without arguments parses as none), so none is marked
// incomplete. A response stopped by its
// output limit (length) that holds at least one complete call keeps its
// complete calls and goes on from their results (goOn), dropping the
// incomplete ones, while continuations (how many did so before in the run)
// is under MaxOutputLimitContinuations. (seed) Any other response keeps no
// call: half calls are never run nor stored. (seed)
func keepCalls(m Message, continuations int) (kept Message, dropped []Content, goOn bool) {
	if m.StopReason == StopReasonToolUse {
		return m.wholeCalls(), nil, false
	}
	if m.StopReason != StopReasonLength || continuations >= MaxOutputLimitContinuations {
		return m.withoutToolCalls(), nil, false
	}
	content := make([]Content, 0, len(m.Content))
	complete := 0
	for _, c := range m.Content {
		switch {
		case c.Type != ContentToolCall:
			content = append(content, c)
		case c.Incomplete:
			dropped = append(dropped, c)
		default:
			complete++
			content = append(content, c)
		}
	}
	if complete == 0 {
		return m.withoutToolCalls(), nil, false
	}
	m.Content = content
	return m, dropped, true
}

// outputLimitNote tells the model, after the results of the calls that ran,
// that its last response was cut and what of it did not run.
func outputLimitNote(dropped []Content, at time.Time) Message {
	var b strings.Builder
	b.WriteString("[runtime] Your last response reached its output limit. The complete tool calls in it ran; their results are above.")
	if len(dropped) > 0 {
		names := make([]string, len(dropped))
		for i, c := range dropped {
			names[i] = c.Name
		}
		fmt.Fprintf(&b, " The call that was cut off (%s) was dropped and did not run: make it again, in smaller pieces if it was large.", strings.Join(names, ", "))
	}
	b.WriteString(" Go on from here.")
	return UserMessage(b.String(), at)
}

// wholeCalls returns m with no call marked incomplete, copying its content
// only when one is.
func (m Message) wholeCalls() Message {
	cloned := false
	for i, c := range m.Content {
		if !c.Incomplete {
			continue
		}
		if !cloned {
			m, cloned = m.Clone(), true
		}
		m.Content[i].Incomplete = false
	}
	return m
}
