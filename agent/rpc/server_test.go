package rpc

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

func TestServerPromptStreamsTheRun(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("Hel").Text("lo")))
	h.send(`{"type":"get_last_assistant_text","id":"before"}`)
	if text := h.response("before").data()["text"]; text != nil {
		t.Fatalf("text before any run: %v", text)
	}
	h.send(`{"type":"prompt","message":"hi","id":"p"}`)
	lines, _ := h.run("p")
	want := []string{"agent_start", "turn_start", "message_start", "message_end",
		"attempt_start", "message_start", "attempt_end", "message_end", "turn_end", "agent_end"}
	events := types(lines)
	if n := len(events); n > 0 && events[n-1] == "run_end" { // it follows agent_end, before or after the prompt's response
		events = events[:n-1]
	}
	if !reflect.DeepEqual(events, want) {
		t.Fatalf("events\n got %v\nwant %v", events, want)
	}
	attempt := lines[slices.IndexFunc(lines, isType("attempt_start"))]
	if attempt["profile"] != "test:default" || attempt["model"] != "test/scripted-test" || attempt["sessionId"] == nil {
		t.Fatalf("attempt_start %v", attempt)
	}
	var deltas []string
	for _, l := range lines {
		if l.is("response") {
			if l["success"] != true || l["data"] != nil {
				t.Fatalf("prompt response %v", l)
			}
			continue
		}
		if l["sessionId"] != h.rt.SessionID() {
			t.Fatalf("event without the session: %v", l)
		}
		if l.is("message_update") {
			ev := l["assistantMessageEvent"].(map[string]any)
			if _, ok := ev["partial"]; ok {
				t.Fatalf("assistantMessageEvent carries partial: %v", ev)
			}
			if ev["type"] == "text_delta" {
				deltas = append(deltas, ev["delta"].(string))
			}
			if ev["type"] == "text_end" && ev["content"] != "Hello" {
				t.Fatalf("text_end %v", ev)
			}
		}
	}
	if !reflect.DeepEqual(deltas, []string{"Hel", "lo"}) {
		t.Fatalf("deltas %v", deltas)
	}
	end := lines[slices.IndexFunc(lines, isType("agent_end"))]
	msgs := end["messages"].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["content"] != "hi" || msgs[1].(map[string]any)["stopReason"] != "stop" {
		t.Fatalf("agent_end messages %v", msgs)
	}

	h.send(`{"type":"get_last_assistant_text","id":"after"}`)
	if text := h.response("after").data()["text"]; text != "Hello" {
		t.Fatalf("last assistant text %v", text)
	}
	h.send(`{"type":"get_messages","id":"m"}`)
	got := h.response("m").data()["messages"].([]any)
	if len(got) != 2 || got[0].(map[string]any)["role"] != "user" || got[1].(map[string]any)["role"] != "assistant" {
		t.Fatalf("get_messages %v", got)
	}
}

func TestServerPromptWhileStreaming(t *testing.T) {
	release := make(chan struct{})
	h := newHarness(t, agenttest.NewScript(
		agenttest.Reply().Text("working").Wait(release),
		agenttest.Reply().Text("steered"),
	))
	sessionID := h.rt.SessionID()
	h.send(`{"type":"prompt","message":"start","id":"1"}`)
	h.until(isDelta)

	h.send(`{"type":"prompt","message":"again","id":"2"}`)
	if r := h.response("2"); r["success"] != false || r["error"] != errStreaming.Error() {
		t.Fatalf("prompt while streaming: %v", r)
	}
	h.send(`{"type":"new_session","id":"ns"}`)
	if r := h.response("ns"); r["success"] != false || !strings.Contains(r["error"].(string), "while a run is active") {
		t.Fatalf("new_session while streaming: %v", r)
	}

	h.send(`{"type":"prompt","message":"turn left","streamingBehavior":"steer","id":"3"}`)
	lines := h.until(func(l line) bool { return l.isResponse("3") })
	r := lines[len(lines)-1]
	if r["success"] != true || r.data()["queued"] != true || r.data()["itemId"] == "" {
		t.Fatalf("steering prompt: %v", r)
	}
	queued := slices.IndexFunc(lines, isType("queue_update"))
	if queued < 0 || !reflect.DeepEqual(lines[queued]["steering"], []any{"turn left"}) || !reflect.DeepEqual(lines[queued]["followUp"], []any{}) {
		t.Fatalf("no queue_update with the steering text before the response: %v", lines)
	}
	items := lines[queued]["items"].([]any)
	if item := items[0].(map[string]any); item["id"] != r.data()["itemId"] || item["kind"] != "steer" || item["text"] != "turn left" {
		t.Fatalf("queue item %v", item)
	}

	h.send(`{"type":"get_state","id":"st"}`)
	st := h.response("st").data()
	if st["isStreaming"] != true || st["pendingMessageCount"] != 1.0 || len(st["queue"].([]any)) != 1 {
		t.Fatalf("state while streaming: %v", st)
	}

	close(release)
	run := h.until(isType("agent_end"))
	if n := count(run, isType("agent_start")); n != 0 {
		t.Fatalf("steering started %d new runs", n)
	}
	if !slices.ContainsFunc(run, func(l line) bool {
		return l.is("queue_update") && len(l["items"].([]any)) == 0
	}) {
		t.Fatal("no queue_update emptying the queue as the steering is injected")
	}
	reqs := h.script.Requests()
	if len(reqs) != 2 || lastUserText(t, reqs[1]) != "turn left" {
		t.Fatalf("the steering did not reach the next request: %d requests", len(reqs))
	}

	h.send(`{"type":"new_session","id":"ns2"}`)
	if r := h.response("ns2"); r["success"] != true || r.data()["cancelled"] != false {
		t.Fatalf("new_session when idle: %v", r)
	}
	h.send(`{"type":"get_state","id":"st2"}`)
	st = h.response("st2").data()
	if st["sessionId"] == sessionID || st["sessionId"] != h.rt.SessionID() || st["messageCount"] != 0.0 {
		t.Fatalf("state after new_session: %v", st)
	}
}

// A pi client prompts again as soon as it reads agent_end, but the runtime
// turns idle only after every subscriber has seen that event. A subscriber
// behind the server's holds each agent_end until the next prompt has been
// read, so the prompt arrives while the runtime is still busy; the server
// must wait for idle rather than answer "streaming".
func TestServerPromptRightAfterAgentEnd(t *testing.T) {
	const runs = 5
	replies := make([]*agenttest.Response, runs)
	for i := range replies {
		replies[i] = agenttest.Reply().Text("ok")
	}
	h := newHarness(t, agenttest.NewScript(replies...))
	h.send(`{"type":"get_state","id":"subscribed"}`) // the server has subscribed
	h.response("subscribed")
	gates := make(chan chan struct{}, runs)
	done := make(chan struct{})
	defer close(done)
	unsubscribe := h.rt.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentEnd); ok {
			select {
			case <-<-gates:
			case <-done:
			}
		}
	})
	defer unsubscribe()

	var held chan struct{}
	for i := range runs {
		gate := make(chan struct{})
		gates <- gate
		id := fmt.Sprint(i)
		h.send(`{"type":"prompt","message":"again","id":"` + id + `"}`)
		if held != nil {
			close(held)
		}
		held = gate
		if _, r := h.run(id); r["success"] != true {
			t.Fatalf("prompt %d right after agent_end: %v", i, r)
		}
	}
	close(held)
}

func TestServerFollowUpJoinsTheRun(t *testing.T) {
	release := make(chan struct{})
	h := newHarness(t, agenttest.NewScript(
		agenttest.Reply().Text("first").Wait(release),
		agenttest.Reply().Text("second"),
	))
	h.send(`{"type":"prompt","message":"go","id":"p"}`)
	lines := h.until(isDelta)
	h.send(`{"type":"follow_up","message":"and then","id":"f"}`)
	r := h.response("f")
	if r["success"] != true || r.data()["queued"] != true {
		t.Fatalf("follow_up during a run: %v", r)
	}
	close(release)
	lines = append(lines, h.until(isType("agent_end"))...)
	if n := count(lines, isType("agent_start")); n != 1 {
		t.Fatalf("%d agent_start, want the follow-up delivered in the same run", n)
	}
	reqs := h.script.Requests()
	if len(reqs) != 2 || lastUserText(t, reqs[1]) != "and then" {
		t.Fatalf("the follow-up did not reach the second request: %d requests", len(reqs))
	}
	if err := h.closeInput(); err != nil {
		t.Fatal(err)
	}
}

// TestServerInterruptAbortsTheRun: interrupt during a run aborts it and
// starts the next run with its text; collect queues without steering.
func TestServerInterruptAbortsTheRun(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(
		agenttest.Reply().Text("first").Hang(),
		agenttest.Reply().Text("second"),
	))
	h.send(`{"type":"prompt","message":"go","id":"p"}`)
	h.until(isDelta)
	h.send(`{"type":"interrupt","message":"stop, do this","id":"i"}`)
	lines := h.until(isType("agent_end"))
	lines = append(lines, h.until(isType("agent_end"))...)
	if n := count(lines, isType("agent_start")); n != 1 {
		t.Fatalf("%d agent_start after the interrupt, want the next run", n)
	}
	reqs := h.script.Requests()
	if len(reqs) != 2 || lastUserText(t, reqs[1]) != "stop, do this" {
		t.Fatalf("the interrupt did not start the next request: %d requests", len(reqs))
	}
	h.send(`{"type":"prompt","message":"x","streamingBehavior":"sideways","id":"b"}`)
	if r := h.response("b"); r["success"] != false || !strings.Contains(r["error"].(string), "collect or interrupt") {
		t.Fatalf("a bad streamingBehavior: %v", r)
	}
	if err := h.closeInput(); err != nil {
		t.Fatal(err)
	}
}

func TestServerSteerWhenIdleStartsARun(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("ok")))
	h.send(`{"type":"steer","message":"now","id":"s"}`)
	_, r := h.run("s")
	if r["success"] != true || r.data()["queued"] != false || r.data()["itemId"] != nil {
		t.Fatalf("steer when idle: %v", r)
	}
	if reqs := h.script.Requests(); len(reqs) != 1 || lastUserText(t, reqs[0]) != "now" {
		t.Fatal("steer did not start a run with its text")
	}
}

func TestServerQuit(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("x").Hang()))
	h.send(`{"type":"prompt","message":"go"}`)
	h.until(isDelta)
	h.send(`{"type":"quit","id":"q"}`)
	lines := h.until(func(l line) bool { return l.isResponse("q") })
	if lines[len(lines)-1]["success"] != true {
		t.Fatalf("quit: %v", lines[len(lines)-1])
	}
	end := slices.IndexFunc(lines, isType("agent_end"))
	if end < 0 {
		t.Fatal("quit answered before the run ended")
	}
	msgs := lines[end]["messages"].([]any)
	if last := msgs[len(msgs)-1].(map[string]any); last["stopReason"] != "aborted" || last["errorMessage"] != runner.AbortQuit {
		t.Fatalf("the run was not aborted by the quit: %v", last)
	}
	if err := h.wait(); err != nil {
		t.Fatalf("Serve after quit: %v", err)
	}
	if rest := h.rest(); len(rest) != 0 {
		t.Fatalf("output after quit: %v", rest)
	}
}

func TestServerEOFWaitsForTheRun(t *testing.T) {
	release := make(chan struct{})
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("x").Wait(release).Text("y")))
	h.send(`{"type":"prompt","message":"go"}`)
	h.until(isDelta)
	_ = h.in.Close()
	select {
	case err := <-h.served:
		t.Fatalf("Serve returned %v while the run was active", err)
	default:
	}
	close(release)
	if err := h.wait(); err != nil {
		t.Fatal(err)
	}
	rest := h.rest()
	i := slices.IndexFunc(rest, isType("agent_end"))
	if i < 0 {
		t.Fatalf("no agent_end before Serve returned: %v", types(rest))
	}
	msgs := rest[i]["messages"].([]any)
	final := msgs[len(msgs)-1].(map[string]any)
	if text := final["content"].([]any)[0].(map[string]any)["text"]; text != "xy" || final["stopReason"] != "stop" {
		t.Fatalf("final message %v", final)
	}
}

func TestServerContextCancelAbortsTheRun(t *testing.T) {
	sighup := runner.AbortSignal(syscall.SIGHUP)
	cases := []struct {
		name   string
		cause  error
		reason string
	}{
		{"no cause: a quit", nil, runner.AbortQuit},
		{"a signal", &agent.AbortError{Reason: sighup}, sighup},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("x").Hang()))
			h.send(`{"type":"prompt","message":"go"}`)
			h.until(isDelta)
			h.cancelCause(tc.cause)
			if err := h.wait(); !errors.Is(err, context.Canceled) {
				t.Fatalf("Serve returned %v, want context.Canceled", err)
			}
			rest := h.rest()
			i := slices.IndexFunc(rest, isType("agent_end"))
			if i < 0 {
				t.Fatalf("no agent_end after cancel: %v", types(rest))
			}
			msgs := rest[i]["messages"].([]any)
			if last := msgs[len(msgs)-1].(map[string]any); last["errorMessage"] != tc.reason {
				t.Fatalf("aborted marker %v, want errorMessage %q", last, tc.reason)
			}
		})
	}
}

func TestServerAbortWaitsForTheRun(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("x").Hang(), agenttest.Reply().Text("again")))
	h.send(`{"type":"prompt","message":"go"}`)
	h.until(isDelta)
	h.send(`{"type":"abort","id":"a"}`)
	lines := h.until(func(l line) bool { return l.isResponse("a") })
	if !slices.ContainsFunc(lines, isType("agent_end")) {
		t.Fatal("abort answered before the run ended")
	}
	h.send(`{"type":"prompt","message":"next","id":"p"}`)
	if _, r := h.run("p"); r["success"] != true {
		t.Fatalf("prompt right after abort: %v", r)
	}
}

func TestServeReturnsTheWriteError(t *testing.T) {
	rt, err := runner.New(context.Background(), runner.Options{Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript().Stream}}})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(`{"type":"get_state"}` + "\n" + `{"type":"get_messages"}` + "\n")
	fw := &failingWriter{}
	if err := NewServer(rt, in, fw).Serve(context.Background()); !errors.Is(err, errWrite) {
		t.Fatalf("Serve returned %v, want the write error", err)
	}
	if fw.n != 1 {
		t.Fatalf("%d writes after the output failed", fw.n)
	}
}

// TestServerRunEndFollowsAgentEnd: the event after a run's agent_end is its
// run_end, with the session, the run and how it went.
func TestServerRunEndFollowsAgentEnd(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("hi back")))
	h.send(`{"type":"prompt","message":"hi","id":"p"}`)
	h.event("agent_end")
	end := h.next()
	for end.is("response") { // the prompt's answer is not an event of the run
		end = h.next()
	}
	if !end.is("run_end") || end["outcome"] != "completed" || end["sessionId"] != h.rt.SessionID() || end["runId"] == nil {
		t.Fatalf("after agent_end: %v, want the run's run_end", end)
	}
	if _, ok := end["reason"]; ok {
		t.Fatalf("a completed run_end with a reason: %v", end)
	}
}
