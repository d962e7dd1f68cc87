package rpc

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// answerAll is a provider that answers every request at once with the text
// of the request's last user message.
func answerAll(ctx context.Context, model agent.Model, llm agent.LLMContext, _ agent.StreamOptions) *agent.AssistantStream {
	stream := agent.NewAssistantStream()
	go func() {
		w := agent.NewStreamWriter(ctx, stream, model, agenttest.Epoch)
		w.Start()
		w.TextDelta("re: " + llm.Messages[len(llm.Messages)-1].TextContent())
		w.Finish(agent.StopReasonStop)
	}()
	return stream
}

// TestServerFollowUpRightAfterPromptIsAnswered sends a prompt and at once a
// follow-up, round after round: whether the follow-up lands in the run or
// just after it ended, every acknowledged input is answered.
func TestServerFollowUpRightAfterPromptIsAnswered(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 30
	}
	h := newHarnessStream(t, answerAll, runner.Options{})
	for i := range rounds {
		follow := fmt.Sprintf("f%d", i)
		h.sendRaw(fmt.Sprintf("{\"type\":\"prompt\",\"message\":\"p%d\",\"id\":\"p%d\"}\n{\"type\":\"follow_up\",\"message\":\"%s\",\"id\":\"%s\"}\n", i, i, follow, follow))
		var acked, answered, ended bool
		for !(acked && answered && ended) {
			l := h.next()
			switch {
			case l.isResponse(follow):
				if l["success"] != true {
					t.Fatalf("round %d: follow_up refused: %v", i, l)
				}
				acked = true
			case l.isResponse(fmt.Sprintf("p%d", i)) && l["success"] != true:
				t.Fatalf("round %d: prompt refused: %v", i, l)
			case l.is("message_end"):
				msg := l["message"].(map[string]any)
				if msg["role"] == "assistant" && strings.Contains(fmt.Sprint(msg["content"]), "re: "+follow) {
					answered = true
				}
			case l.is("agent_end"):
				ended = answered
			}
		}
	}
}

// TestServerOneAtATimeAfterAbort: steering queued during a run that is then
// aborted stays queued; a steer sent while idle starts a run whose requests
// each gain exactly one queued item, oldest first, the new one last.
func TestServerOneAtATimeAfterAbort(t *testing.T) {
	replies := []*agenttest.Response{agenttest.Reply().Text("working").Hang()}
	for range 4 {
		replies = append(replies, agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
	}
	script := agenttest.NewScript(replies...)
	h := newHarness(t, script)
	h.send(`{"type":"prompt","message":"run sleep 5"}`)
	h.until(isDelta)
	for _, s := range []string{"s1", "s2", "s3"} {
		h.send(`{"type":"steer","message":"` + s + `","id":"` + s + `"}`)
		h.response(s)
	}
	h.send(`{"type":"abort","id":"a"}`)
	h.response("a")
	h.send(`{"type":"steer","message":"s4","id":"s4"}`)
	h.response("s4")
	h.event("agent_end")

	var gained [][]string
	prev := 1 // the first prompt
	for _, req := range script.Requests()[1:] {
		var users []string
		for _, m := range req.Messages {
			if m.Role == agent.RoleUser {
				users = append(users, m.TextContent())
			}
		}
		gained = append(gained, users[prev:])
		prev = len(users)
	}
	want := [][]string{{"s1"}, {"s2"}, {"s3"}, {"s4"}}
	if fmt.Sprint(gained) != fmt.Sprint(want) {
		t.Fatalf("each request gained %v, want %v", gained, want)
	}
}
