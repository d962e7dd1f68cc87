package rpc

import (
	"context"
	"database/sql"
	"io"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
)

// TestServerReportsAFailedSave: when saving fails, the client gets a
// persist_error event and get_state carries the error.
func TestServerReportsAFailedSave(t *testing.T) {
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	db, err := sql.Open("sqlite", "file:"+store.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER full BEFORE INSERT ON transcript_entries
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, agenttest.NewScript(agenttest.Reply().Text("hi").Stop(agent.StopReasonStop)),
		runner.Options{Store: store, Workspace: "/ws"})
	h.send(`{"type":"prompt","message":"hello","id":"p"}`)
	ev := h.event(string(runner.NoticePersistError))
	if msg, _ := ev["error"].(string); !strings.Contains(msg, "disk full") || ev["sessionId"] == "" {
		t.Fatalf("persist_error event %v", ev)
	}
	h.send(`{"type":"get_state","id":"s"}`)
	if got, _ := h.response("s").data()["persistError"].(string); !strings.Contains(got, "disk full") {
		t.Fatalf("get_state persistError = %q", got)
	}
}

// TestServerRefusesAnOversizedPrompt: a prompt over the input limit is
// refused with the limit named, and a line far over it is skipped unread;
// a blank input is refused too.
func TestServerRefusesAnOversizedPrompt(t *testing.T) {
	h := newHarnessWith(t, agenttest.NewScript(), runner.Options{MaxInputBytes: 1000})
	h.send(`{"type":"prompt","message":"` + strings.Repeat("x", 1001) + `","id":"big"}`)
	if r := h.response("big"); r["success"] != false || !strings.Contains(r["error"].(string), "agent.maxInputBytes") {
		t.Fatalf("oversized prompt: %v", r)
	}
	h.send(`{"type":"prompt","message":"` + strings.Repeat("x", 200_000) + `","id":"huge"}`)
	if r := h.next(); r["command"] != "parse" || !strings.Contains(r["error"].(string), "at most 1000 bytes") {
		t.Fatalf("runaway line: %v", r)
	}
	for _, kind := range []string{"prompt", "steer", "follow_up"} {
		h.send(`{"type":"` + kind + `","message":" \n\t ","id":"blank"}`)
		if r := h.response("blank"); r["success"] != false || r["error"] != "the input is empty" {
			t.Fatalf("blank %s: %v", kind, r)
		}
	}
	h.send(`{"type":"get_messages","id":"m"}`)
	if msgs := h.response("m").data()["messages"].([]any); len(msgs) != 0 {
		t.Fatalf("stored %d messages from refused prompts", len(msgs))
	}
}

// TestServerInspectProfiles: rpc inspect {what: "profiles"} lists the
// configured profiles from the ledger; lanes answer; an unknown inspector
// is refused.
func TestServerInspectProfiles(t *testing.T) {
	h := newHarness(t, agenttest.NewScript())
	h.send(`{"type":"inspect","what":"profiles","id":"i"}`)
	r := h.response("i")
	profiles, _ := r.data()["profiles"].([]any)
	if r["success"] != true || len(profiles) != 1 {
		t.Fatalf("inspect: %v", r)
	}
	if p := profiles[0].(map[string]any); p["id"] != "test:default" || p["state"] != "available" || p["until"] != nil {
		t.Fatalf("profile %v", p)
	}
	h.send(`{"type":"inspect","what":"lanes","id":"l"}`)
	if r := h.response("l"); r["success"] != true || r.data()["processes"] == nil {
		t.Fatalf("inspect lanes: %v", r)
	}
	h.send(`{"type":"inspect","what":"cats","id":"c"}`)
	if r := h.response("c"); r["success"] != false || !strings.Contains(r["error"].(string), `unknown inspector "cats"`) {
		t.Fatalf("inspect cats: %v", r)
	}
}

// TestAClientThatStopsReadingDoesNotStopTheSaving: the runtime's subscribers
// are called in turn for every event, saving first; a client that does not
// read its output must not hold the later events back from being saved
// while the loop goes on running tools (a follow-up that ran but was not
// saved would run again after a crash).
func TestAClientThatStopsReadingDoesNotStopTheSaving(t *testing.T) {
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	script := agenttest.NewScript(
		agenttest.Reply().Text(strings.Repeat("a long answer ", 20_000)).Stop(agent.StopReasonStop),
		agenttest.Reply().Text("the follow-up's answer").Stop(agent.StopReasonStop),
	)
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Now:       agenttest.Clock, Store: store, Workspace: "/ws",
	})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe() // never read until the end
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- NewServer(rt, inR, outW).Serve(ctx) }()
	io.WriteString(inW, `{"type":"prompt","message":"first","id":"p"}`+"\n"+`{"type":"follow_up","message":"second","id":"f"}`+"\n")

	waitCtx, stop := context.WithTimeout(context.Background(), deadline)
	defer stop()
	for {
		msgs, err := store.LoadTranscript(waitCtx, rt.SessionID())
		if err == nil && len(msgs) == 4 {
			break // both questions and both answers saved, the client still not reading
		}
		if waitCtx.Err() != nil {
			t.Fatalf("saved %d messages (%v) while the client did not read; want 4", len(msgs), err)
		}
		if err := rt.WaitForIdle(waitCtx); err != nil {
			t.Fatalf("the runtime did not go idle while the client did not read: %v", err)
		}
	}
	cancel()
	go io.Copy(io.Discard, outR)
	<-served
	inW.Close()
	closeCtx, done := context.WithTimeout(context.Background(), deadline)
	defer done()
	_ = rt.Close(closeCtx)
}
