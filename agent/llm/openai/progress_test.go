package openai

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp/llmhttptest"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// emptyChunk is what proxies send while the model upstream is stalled: a
// chunk without choices.
const emptyChunk = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[]}` + "\n\n"

// streamOn starts a request to srv with the watchdog on clock and waits
// until the head's two chunks have re-armed it (the watchdog's own arming,
// then one per chunk).
func streamOn(t *testing.T, srv *llmhttptest.TickedServer, clock *llmhttptest.Clock) *agent.AssistantStream {
	t.Helper()
	p := newProvider(t, Config{BaseURL: srv.URL, IdleTimeout: 120 * time.Second, Clock: clock})
	stream := p.Stream(context.Background(), testModel, llmtest.Prompt, agent.StreamOptions{})
	if _, ok := clock.WaitArm(2); !ok {
		t.Fatal("the head never reached the watchdog")
	}
	return stream
}

func TestEmptyChunksDoNotKeepAStalledStreamAlive(t *testing.T) {
	clock := llmhttptest.NewClock(t0)
	srv := llmhttptest.NewTickedServer(t, chunk(`{"role":"assistant","content":""}`)+chunk(`{"content":"Hel"}`),
		func(int) string { return emptyChunk })
	stream := streamOn(t, srv, clock)
	deadline := t0.Add(120 * time.Second)
	for i := 1; ; i++ {
		clock.Advance(time.Second)
		if len(clock.Fired()) > 0 {
			break
		}
		if !srv.Tick() {
			t.Fatalf("the request ended at +%ds", i)
		}
		if d, ok := clock.WaitArm(2 + i); !ok || !d.Equal(deadline) {
			t.Fatalf("empty chunk %d moved the deadline to %v", i, d)
		}
	}
	if fired := clock.Fired(); !fired[0].Equal(deadline) {
		t.Fatalf("fired at %v, want %v", fired[0], deadline)
	}
	_, msg := llmtest.Drain(t, stream)
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorTimeout || msg.TextContent() != "Hel" ||
		e.Message != "no progress from openai for 2m0s (idle timeout; 119 keep-alives did not count)" {
		t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), e)
	}
	if e.Header == nil {
		t.Error("a stall after the headers carries no headers: it would read as never having reached the provider")
	}
	<-srv.Gone()
}

func TestASlowSteadyStreamIsNeverCut(t *testing.T) {
	clock := llmhttptest.NewClock(t0)
	const deltas = 10 // a delta every 30 s for five minutes, with a 120 s window
	srv := llmhttptest.NewTickedServer(t, chunk(`{"role":"assistant","content":""}`)+chunk(`{"content":"Hel"}`),
		func(i int) string {
			if i > deltas {
				return finish("stop") + done
			}
			return chunk(`{"content":"."}`)
		})
	stream := streamOn(t, srv, clock)
	for i := 1; i <= deltas; i++ {
		clock.Advance(30 * time.Second)
		srv.Tick()
		if d, ok := clock.WaitArm(2 + i); !ok || !d.Equal(clock.Now().Add(120*time.Second)) {
			t.Fatalf("delta %d armed the watchdog until %v, want a full window from now", i, d)
		}
	}
	srv.Tick()
	_, msg := llmtest.Drain(t, stream)
	if msg.StopReason != agent.StopReasonStop || msg.TextContent() != "Hel.........." || len(clock.Fired()) != 0 {
		t.Fatalf("stop %s text %q error %+v fired %v", msg.StopReason, msg.TextContent(), msg.Error, clock.Fired())
	}
}
