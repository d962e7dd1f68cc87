package agent

import "slices"

// NoToolResult is the text of the error result that Replayable gives a tool
// call left without one.
const NoToolResult = "No result provided: the tool call was interrupted."

// Replayable returns the part of a transcript worth sending to a provider.
// An assistant message that failed or was aborted is an incomplete turn: it
// is dropped, and so is any tool result that answers no call of a kept
// message. A kept call without a result gets a synthetic error result before
// the next turn, because provider APIs reject a call left unanswered.
func Replayable(msgs []Message) []Message {
	out := make([]Message, 0, len(msgs))
	var pending []Content // unanswered calls of the last kept assistant message
	flush := func() {
		for _, c := range pending {
			out = append(out, Message{Role: RoleToolResult, ToolCallID: c.ID, ToolName: c.Name,
				Content: []Content{Text(NoToolResult)}, IsError: true})
		}
		pending = nil
	}
	for _, m := range msgs {
		switch m.Role {
		case RoleAssistant:
			flush()
			if m.StopReason == StopReasonError || m.StopReason == StopReasonAborted {
				continue
			}
			pending = m.ToolCalls()
			out = append(out, m)
		case RoleToolResult:
			i := slices.IndexFunc(pending, func(c Content) bool { return c.ID == m.ToolCallID })
			if i < 0 {
				continue
			}
			pending = slices.Delete(pending, i, i+1)
			out = append(out, m)
		default:
			flush()
			out = append(out, m)
		}
	}
	flush()
	return out
}

// Price returns the cost of u at the model's rates per million tokens.
func (c ModelCost) Price(u Usage) Cost {
	out := Cost{
		Input:      c.Input * float64(u.Input) / 1e6,
		Output:     c.Output * float64(u.Output) / 1e6,
		CacheRead:  c.CacheRead * float64(u.CacheRead) / 1e6,
		CacheWrite: c.CacheWrite * float64(u.CacheWrite) / 1e6,
	}
	out.Total = out.Input + out.Output + out.CacheRead + out.CacheWrite
	return out
}
