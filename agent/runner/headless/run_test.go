package headless

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the driver, to make appends fail

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
)

// newRuntime is a runtime on script with a store in a fresh directory.
func newRuntime(t *testing.T, script *agenttest.Script, opts runner.Options) (*runner.Runtime, *persistence.Store) {
	t.Helper()
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Providers = []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}}
	opts.Store, opts.Workspace = store, t.TempDir()
	rt, err := runner.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = rt.Close(ctx)
		store.Close()
	})
	return rt, store
}

// lastMessage is the last message of the runtime's saved transcript.
func lastMessage(t *testing.T, rt *runner.Runtime, store *persistence.Store) agent.Message {
	t.Helper()
	msgs, err := store.LoadTranscript(context.Background(), rt.SessionID())
	if err != nil || len(msgs) == 0 {
		t.Fatalf("transcript: %d messages, %v", len(msgs), err)
	}
	return msgs[len(msgs)-1]
}

func TestRunCompletes(t *testing.T) {
	rt, _ := newRuntime(t, agenttest.NewScript(agenttest.Reply().Text("Hel").Text("lo").Stop(agent.StopReasonStop)), runner.Options{})
	var stdout, stderr strings.Builder
	if code := Run(context.Background(), rt, "hi", RunOptions{}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if stdout.String() != "Hello\n" || stderr.String() != "" {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}

// TestRunTimeoutRecordsItsReason: the time limit aborts the run with exit
// status 3, says why on stderr with the run's outcome (it had reached the
// provider: a hard timeout), and the aborted marker names the limit.
func TestRunTimeoutRecordsItsReason(t *testing.T) {
	rt, store := newRuntime(t, agenttest.NewScript(agenttest.Reply().Text("thinking about it").Hang()), runner.Options{RunTimeout: 50 * time.Millisecond})
	var stdout, stderr strings.Builder
	code := Run(context.Background(), rt, "hi", RunOptions{}, &stdout, &stderr)
	if code != ExitTimedOut {
		t.Fatalf("exit %d, want %d", code, ExitTimedOut)
	}
	if want := "steer: run timed out after 50ms\nsteer: run timeout\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if m := lastMessage(t, rt, store); m.StopReason != agent.StopReasonAborted || m.ErrorMessage != "run timed out after 50ms" {
		t.Errorf("last message: stopReason %q, errorMessage %q", m.StopReason, m.ErrorMessage)
	}
}

// TestRunFailurePrintsItsReason: a run that failed says so on stderr
// with the reason of its run_end, after its error.
func TestRunFailurePrintsItsReason(t *testing.T) {
	rt, _ := newRuntime(t, agenttest.NewScript(agenttest.Reply().Fail(&agent.ProviderError{Status: 401, Message: "invalid api key"})), runner.Options{})
	var stdout, stderr strings.Builder
	if code := Run(context.Background(), rt, "hi", RunOptions{}, &stdout, &stderr); code != ExitFailed {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if got := stderr.String(); !strings.HasSuffix(got, "\nsteer: run failed: auth\n") {
		t.Errorf("stderr %q, want it to end with the outcome and reason", got)
	}
}

// TestRunCancelRecordsTheCause: cancelling with a cause (main: the signal)
// aborts with that reason; plain cancellation is the user's abort.
func TestRunCancelRecordsTheCause(t *testing.T) {
	for _, tt := range []struct {
		name  string
		cause error
		want  string
	}{
		{"signal", errors.New(runner.AbortSignal(syscall.SIGTERM)), "steer received SIGTERM"},
		{"plain", nil, agent.AbortedMessage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan struct{})
			rt, store := newRuntime(t, agenttest.NewScript(agenttest.Reply().Hang()), runner.Options{})
			rt.Subscribe(func(ev agent.Event) {
				if _, ok := ev.(agent.MessageStart); ok {
					select {
					case <-started:
					default:
						close(started)
					}
				}
			})
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() { <-started; cancel(tt.cause) }()
			var stdout, stderr strings.Builder
			if code := Run(ctx, rt, "hi", RunOptions{}, &stdout, &stderr); code != ExitCancelled {
				t.Fatalf("exit %d", code)
			}
			if want := "steer: run aborted: " + tt.want + "\n"; stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
			if m := lastMessage(t, rt, store); m.ErrorMessage != tt.want {
				t.Errorf("errorMessage %q, want %q", m.ErrorMessage, tt.want)
			}
		})
	}
}

// TestRunFailedSaveExits1: a save that fails is printed as it happens and
// fails a run that otherwise completed.
func TestRunFailedSaveExits1(t *testing.T) {
	rt, store := newRuntime(t, agenttest.NewScript(agenttest.Reply().Text("answer").Stop(agent.StopReasonStop)), runner.Options{})
	db, err := sql.Open("sqlite", "file:"+store.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER fail_appends BEFORE INSERT ON transcript_entries
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	code := Run(context.Background(), rt, "hi", RunOptions{}, &stdout, &stderr)
	if code != ExitFailed {
		t.Errorf("exit %d, want %d", code, ExitFailed)
	}
	if stdout.String() != "answer\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), "disk full") || !strings.Contains(stderr.String(), "not fully saved") {
		t.Errorf("stderr %q, want the failed save", stderr.String())
	}
}

// TestRunRefusesATooLargePrompt: over the runtime's input limit is a usage
// error and nothing is stored.
func TestRunRefusesATooLargePrompt(t *testing.T) {
	rt, store := newRuntime(t, agenttest.NewScript(), runner.Options{MaxInputBytes: 8})
	var stdout, stderr strings.Builder
	if code := Run(context.Background(), rt, "a prompt too long", RunOptions{}, &stdout, &stderr); code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
	if !strings.Contains(stderr.String(), "over the limit") {
		t.Errorf("stderr %q", stderr.String())
	}
	if list, err := store.ListSessions(context.Background(), persistence.ListOptions{}); err != nil || len(list) != 0 {
		t.Errorf("sessions after a refused prompt: %v, %v", list, err)
	}
	stdout.Reset()
	Run(context.Background(), rt, "a prompt too long", RunOptions{JSON: true}, &stdout, &stderr)
	if !strings.HasPrefix(stdout.String(), `{"type":"session"`) {
		t.Errorf("--json stdout of a refused prompt = %q, want the session header", stdout.String())
	}
}

// stuckTool ignores cancellation until released.
type stuckTool struct{ release, started chan struct{} }

func (stuckTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: "stuck", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (s stuckTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	close(s.started)
	<-s.release
	return agent.TextResult("released"), nil
}

// TestRunGivesUpOnARunThatWillNotStop: the wait after an abort is bounded,
// so a tool that ignores cancellation cannot hold steer run forever.
func TestRunGivesUpOnARunThatWillNotStop(t *testing.T) {
	defer func(d time.Duration) { abortWait = d }(abortWait)
	abortWait = 100 * time.Millisecond
	tool := stuckTool{release: make(chan struct{}), started: make(chan struct{})}
	rt, _ := newRuntime(t, agenttest.NewScript(agenttest.Reply().ToolCall("c1", "stuck", `{}`).Stop(agent.StopReasonToolUse)),
		runner.Options{Tools: []agent.Tool{tool}})
	// Released, the run goes on writing its state directory: it must be
	// done before the directory is removed.
	t.Cleanup(func() {
		close(tool.release)
		if err := rt.WaitForIdle(context.Background()); err != nil {
			t.Error(err)
		}
	})
	var stdout, stderr strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, rt, "hi", RunOptions{}, &stdout, &stderr)
	}()
	<-tool.started
	cancel()
	select {
	case code := <-done:
		if code != ExitCancelled || !strings.Contains(stderr.String(), "did not stop within 100ms") {
			t.Errorf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run waited for a run that does not stop")
	}
}

// TestAPausedReaderDoesNotStopTheSaving: with nobody reading stdout (a
// paused pager), the run still ends and is saved; the answer comes out once
// the reader reads again.
func TestAPausedReaderDoesNotStopTheSaving(t *testing.T) {
	answer := strings.Repeat("a long answer ", 20_000)
	rt, store := newRuntime(t, agenttest.NewScript(agenttest.Reply().Text(answer).Stop(agent.StopReasonStop)), runner.Options{})
	r, w := io.Pipe() // nobody reads r until the run is saved
	var stderr strings.Builder
	done := make(chan int)
	go func() { done <- Run(context.Background(), rt, "hi", RunOptions{}, w, &stderr) }()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for saved := false; !saved; {
		msgs, err := store.LoadTranscript(ctx, rt.SessionID())
		saved = err == nil && len(msgs) == 2 && msgs[1].TextContent() == answer
		select {
		case <-ctx.Done():
			t.Fatal("the answer was not saved while stdout was not read")
		case <-time.After(time.Millisecond): // polling the database, which announces nothing
		}
	}
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	w.Close()
	if out := <-got; out != answer+"\n" {
		t.Fatalf("stdout has %d bytes, want the %d of the answer", len(out), len(answer)+1)
	}
}
