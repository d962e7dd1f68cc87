package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// fillTool fills the disk when it runs, as a command writing a huge file
// would: its result, and the answer after it, meet a full disk.
type fillTool struct {
	disk         *fakeDisk
	commitAnyway bool
}

func (fillTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: "fill", Description: "fills the disk", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (f fillTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	f.disk.setFull(true, f.commitAnyway)
	return agent.TextResult("filled"), nil
}

// noticeWait hands each notice kind over as it comes.
type noticeWait chan NoticeKind

func (w noticeWait) add(n Notice) {
	if n.Kind == NoticePersistError || n.Kind == NoticePersistRecovered {
		w <- n.Kind
	}
}

func (w noticeWait) next(t *testing.T) NoticeKind {
	t.Helper()
	select {
	case k := <-w:
		return k
	case <-time.After(10 * time.Second):
		t.Fatal("no notice came")
		return ""
	}
}

// diskFullRun runs "a tool that fills the disk, then an answer" on a
// runtime whose saver writes through disk, and returns once the run is
// idle: its tool result and answer are kept, unsaved.
func diskFullRun(t *testing.T, commitAnyway bool, opts Options) (*Runtime, *fakeDisk, noticeWait) {
	t.Helper()
	store := openStore(t, t.TempDir())
	t.Cleanup(func() { store.Close() })
	disk := newFakeDisk()
	opts.Tools, opts.Approval = []agent.Tool{fillTool{disk: disk, commitAnyway: commitAnyway}}, "auto"
	rt := newRuntime(t, store, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "fill", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("the answer").Stop(agent.StopReasonStop),
	), opts)
	disk.inject(rt.writes.saver)
	notices := make(noticeWait, 8)
	rt.SubscribeNotices(notices.add)
	if err := rt.Prompt(context.Background(), "fill the disk"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt) // a full disk does not hold the run's end up
	if got := notices.next(t); got != NoticePersistError {
		t.Fatalf("notice %s, want persist_error", got)
	}
	if got := rt.State().PersistError; !strings.Contains(got, "no space left on device") {
		t.Fatalf("PersistError = %q, want the disk's error", got)
	}
	return rt, disk, notices
}

// savedTexts is the saved transcript of rt's session, one entry a message.
func savedTexts(t *testing.T, rt *Runtime) []string {
	t.Helper()
	msgs, err := rt.store.LoadTranscript(context.Background(), rt.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		text := m.TextContent()
		if calls := m.ToolCalls(); len(calls) > 0 {
			text = "call " + calls[0].Name
		}
		out = append(out, string(m.Role)+":"+text)
	}
	return out
}

// TestADiskFullRunIsSavedOnceTheDiskWorks is the disk-full sequence: a run
// calls a tool that fills the disk and answers while every save fails. The
// tool result and the answer are kept; the warning stays while they are
// unsaved; once the disk works again the backoff's retry writes them, in
// order and once each — also when the failed write had committed after all
// — and only then is saving said to work again.
func TestADiskFullRunIsSavedOnceTheDiskWorks(t *testing.T) {
	for _, commitAnyway := range []bool{false, true} {
		t.Run(fmt.Sprintf("failed write committed %v", commitAnyway), func(t *testing.T) {
			rt, disk, notices := diskFullRun(t, commitAnyway, Options{})
			want := []string{"user:fill the disk", "assistant:call fill", "toolResult:filled", "assistant:the answer"}
			if got := savedTexts(t, rt); !commitAnyway && len(got) != 2 {
				t.Fatalf("saved %q on a full disk, want only what came before it", got)
			}

			disk.drainTried()
			disk.fire() // still full: the retry fails, the warning stays
			<-disk.tried
			if rt.State().PersistError == "" {
				t.Fatal("the warning cleared while the disk is still full")
			}
			disk.setFull(false, false)
			disk.fire()
			if got := notices.next(t); got != NoticePersistRecovered {
				t.Fatalf("notice %s, want persist_recovered", got)
			}
			if got := savedTexts(t, rt); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("saved\n %q\nwant\n %q", got, want)
			}
			if got := rt.State().PersistError; got != "" {
				t.Fatalf("PersistError = %q once everything is saved", got)
			}
			if err := rt.Close(context.Background()); err != nil {
				t.Fatalf("Close = %v with everything saved", err)
			}
		})
	}
}

// TestQuitSaysWhatWasNotSaved: quitting while the disk is still full tries
// the kept writes once more, then says what was not saved — the tool result
// and the answer, as messages of the session — in Close's error and the
// log; the warning stays.
func TestQuitSaysWhatWasNotSaved(t *testing.T) {
	log := &agenttest.Buffer{}
	rt, _, _ := diskFullRun(t, false, Options{Logger: slog.New(slog.NewJSONHandler(log, nil))})
	err := rt.Close(context.Background())
	accounts := NotSaved(err)
	if len(accounts) != 1 {
		t.Fatalf("Close = %v, want an account of what was not saved", err)
	}
	want := fmt.Sprintf("not saved: 2 messages and 2 run records of session %s (the disk is full?)", rt.SessionID())
	if got := accounts[0].Error(); got != want {
		t.Errorf("account\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(log.String(), want) {
		t.Errorf("the log does not say %q:\n%s", want, log.String())
	}
	var ue *UnsavedError
	if !errors.As(err, &ue) || rt.State().PersistError == "" {
		t.Errorf("the warning cleared at quit: %q", rt.State().PersistError)
	}
}

// TestASessionWithKeptWritesIsNotLeft: while writes of the session wait for
// a retry, starting a new session is refused, naming them, and the
// transcript in memory stays; once they are written it works.
func TestASessionWithKeptWritesIsNotLeft(t *testing.T) {
	rt, disk, notices := diskFullRun(t, false, Options{})
	before := rt.SessionID()
	err := rt.NewSession(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not saved: 2 messages") {
		t.Fatalf("NewSession = %v, want it refused naming the unsaved messages", err)
	}
	if rt.SessionID() != before || len(rt.State().Messages) != 4 {
		t.Fatalf("the refused switch changed the session (%s, %d messages)", rt.SessionID(), len(rt.State().Messages))
	}
	disk.setFull(false, false)
	disk.fire()
	if got := notices.next(t); got != NoticePersistRecovered {
		t.Fatalf("notice %s, want persist_recovered", got)
	}
	if err := rt.NewSession(context.Background()); err != nil {
		t.Fatalf("NewSession once everything is saved: %v", err)
	}
}
