package mcp

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// TestToolResults calls a tool of each content kind over stdio and over
// streamable HTTP and checks what the model would read.
func TestToolResults(t *testing.T) {
	ts := httpServer(t, nil)
	m := started(t, stdio("local", mcptest.ModeOK), Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL})
	for _, srv := range []string{"local", "remote"} {
		if st := statusOf(t, m, srv); st.State != StateReady || st.Tools != 11 || st.Prompts != 1 || st.Resources != 1 {
			t.Fatalf("%s: %+v", srv, st)
		}
		cases := []struct {
			tool    string
			args    map[string]any
			want    agent.Content
			isError bool
		}{
			{"echo", map[string]any{"text": "hi"}, agent.Text("hi"), false},
			{"image", nil, agent.Content{Type: agent.ContentImage, MimeType: "image/png", Data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"}, false},
			{"audio", nil, agent.Text("[audio audio/wav, 8 bytes: not shown]"), false},
			{"resource", nil, agent.Text("the notes"), false},
			{"structured", nil, agent.Text(`{"answer":42}`), false},
			{"fail", nil, agent.Text("it broke"), true},
		}
		for _, c := range cases {
			t.Run(srv+"/"+c.tool, func(t *testing.T) {
				res, err := toolNamed(t, m, "mcp__"+srv+"__"+c.tool).Execute(context.Background(), "call-1", c.args, nil)
				if err != nil || len(res.Content) != 1 || !reflect.DeepEqual(res.Content[0], c.want) || res.IsError != c.isError {
					t.Fatalf("got %+v, %v; want %+v (isError %v)", res, err, c.want, c.isError)
				}
			})
		}
	}
	if !toolNamed(t, m, "mcp__local__echo").ReadOnly() || toolNamed(t, m, "mcp__local__fail").ReadOnly() {
		t.Error("readOnlyHint is not read")
	}
}

// TestProgressAndCancel: the slow tool's progress reaches the live output
// and cancelling the call reaches the server (notifications/cancelled).
func TestProgressAndCancel(t *testing.T) {
	calls := &mcptest.Calls{}
	ts := httpServer(t, calls)
	m := started(t, Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL})
	ctx, cancel := context.WithCancel(context.Background())
	progressed := make(chan string, 1)
	done := make(chan agent.ToolResult, 1)
	go func() {
		res, _ := toolNamed(t, m, "mcp__remote__slow").Execute(ctx, "c1", nil, func(p agent.ToolResult) { progressed <- p.Content[0].Text })
		done <- res
	}()
	if got := <-progressed; got != "progress 1/2: halfway" {
		t.Errorf("progress: %q", got)
	}
	cancel()
	if res := <-done; !res.IsError || res.Content[0].Text != "[aborted]" {
		t.Errorf("cancelled call: %+v", res)
	}
	select {
	case <-calls.Cancelled():
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the cancellation")
	}
}

// TestListChanged: a tool the server adds is offered after its
// tools/list_changed.
func TestListChanged(t *testing.T) {
	m := started(t, stdio("local", mcptest.ModeOK))
	if _, err := toolNamed(t, m, "mcp__local__grow").Execute(context.Background(), "c1", nil, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "the extra tool", func() bool { return statusOf(t, m, "local").Tools == 12 })
	toolNamed(t, m, "mcp__local__extra")
}

// TestPromptsAndResources lists and gets them.
func TestPromptsAndResources(t *testing.T) {
	m := started(t, stdio("local", mcptest.ModeOK))
	ps := m.Prompts()
	if len(ps) != 1 || ps[0].Name != "greet" || len(ps[0].Arguments) != 1 || !ps[0].Arguments[0].Required {
		t.Fatalf("prompts: %+v", ps)
	}
	msgs, err := m.GetPrompt(context.Background(), "local", "greet", map[string]string{"name": "Ada"})
	if err != nil || len(msgs) != 1 || msgs[0].Role != "user" || msgs[0].Content.Text != "Say hello to Ada" {
		t.Fatalf("GetPrompt: %+v, %v", msgs, err)
	}
	if rs := m.Resources(); len(rs) != 1 || rs[0].URI != "test://readme" {
		t.Fatalf("resources: %+v", rs)
	}
	if ts := m.ResourceTemplates(); len(ts) != 1 || ts[0].URITemplate != "test://items/{id}" {
		t.Fatalf("templates: %+v", ts)
	}
	got, err := m.ReadResource(context.Background(), "local", "test://items/7")
	if err != nil || len(got) != 1 || got[0].Text != "item test://items/7" {
		t.Fatalf("ReadResource: %+v, %v", got, err)
	}
}

// TestFaults: a server that exits, one that hangs and one that prints
// garbage are each failed within their timeout with their last stderr
// lines, restarted at most MaxRestarts times, and leave no child; a good
// server beside them works.
func TestFaults(t *testing.T) {
	hang := stdio("hang", mcptest.ModeHang)
	hang.Timeout = 500 * time.Millisecond
	garbage := stdio("garbage", mcptest.ModeGarbage)
	garbage.Timeout = time.Second
	m := started(t, stdio("exit", mcptest.ModeExit), hang, garbage, stdio("good", mcptest.ModeOK))
	stderr := map[string]string{"exit": "fatal: the test server gave up", "hang": "hanging", "garbage": "writing garbage"}
	for name, line := range stderr {
		waitFor(t, m, name+"'s last restart", func() bool {
			st := statusOf(t, m, name)
			return st.State == StateFailed && st.Restarts == MaxRestarts
		})
		st := statusOf(t, m, name)
		if st.Error == "" || len(st.Stderr) == 0 || st.Stderr[len(st.Stderr)-1] != line {
			t.Errorf("%s: %+v", name, st)
		}
	}
	if !strings.Contains(statusOf(t, m, "hang").Error, "no answer within 500ms") {
		t.Errorf("hang: %+v", statusOf(t, m, "hang"))
	}
	res, _ := toolNamed(t, m, "mcp__good__echo").Execute(context.Background(), "c", map[string]any{"text": "still here"}, nil)
	if res.Content[0].Text != "still here" {
		t.Errorf("good server: %+v", res)
	}
}

// TestCrashWithdrawsTools: a server that dies is failed, its tools are
// withdrawn, and it comes back by itself.
func TestCrashWithdrawsTools(t *testing.T) {
	m := started(t, stdio("local", mcptest.ModeOK))
	gone := make(chan struct{})
	var sawWithdrawn bool
	unsub := m.Subscribe(func() {
		if st := statusOf(t, m, "local"); st.State != StateReady && len(m.Tools()) == 0 && !sawWithdrawn {
			sawWithdrawn = true
			close(gone)
		}
	})
	res, _ := toolNamed(t, m, "mcp__local__die").Execute(context.Background(), "c", nil, nil)
	if !res.IsError {
		t.Errorf("a call whose server died: %+v", res)
	}
	<-gone
	unsub()
	waitFor(t, m, "the restart", func() bool { st := statusOf(t, m, "local"); return st.State == StateReady && st.Restarts == 1 })
}

// TestNoChildLeft: Close kills every child's process group.
func TestNoChildLeft(t *testing.T) {
	m := New([]Config{stdio("local", mcptest.ModeOK)}, nil, false, nil)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	s, _ := m.server("local")
	s.mu.Lock()
	l := s.link
	s.mu.Unlock()
	l.mu.Lock()
	pid := l.pid
	l.mu.Unlock()
	m.Close()
	if err := syscall.Kill(-pid, 0); err != syscall.ESRCH {
		t.Errorf("the child's group %d is still there after Close (%v)", pid, err)
	}
}

// TestStates: disabled, untrusted and misconfigured servers never start.
func TestStates(t *testing.T) {
	project := &Project{Path: "/w/.mcp.json", Hash: "h", Servers: []Config{stdio("fromrepo", mcptest.ModeOK)}}
	disabled := stdio("off", mcptest.ModeOK)
	disabled.Disabled = true
	m := New([]Config{disabled, {Name: "bad", Transport: TransportStdio}}, project, false, nil)
	t.Cleanup(m.Close)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]State{"off": StateDisabled, "bad": StateFailed, "fromrepo": StateUntrusted}
	for name, st := range want {
		if got := statusOf(t, m, name); got.State != st {
			t.Errorf("%s: %+v, want %s", name, got, st)
		}
	}
	if got := project.Commands(); len(got) != 1 || !strings.HasPrefix(got[0], "fromrepo: ") {
		t.Errorf("Commands: %q", got)
	}
	m.StartProject()
	waitFor(t, m, "the trusted project's server", func() bool { return statusOf(t, m, "fromrepo").State == StateReady })
	if st := statusOf(t, m, "fromrepo"); st.Source != SourceProject {
		t.Errorf("source: %+v", st)
	}
}

// TestShutdownSendsSIGTERM: a stdio server that stays after its stdin
// closed is sent SIGTERM, as the specification's shutdown has it, before
// it would be killed, and Close still returns within its grace.
func TestShutdownSendsSIGTERM(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "pids")
	cfg := stdio("local", mcptest.ModeStays)
	cfg.Env[mcptest.PIDFileEnv] = notes
	m := New([]Config{cfg}, nil, false, nil)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m.Close()
	if took := time.Since(start); took > 2*closeGrace {
		t.Errorf("Close took %v", took)
	}
	raw, _ := os.ReadFile(notes)
	if !strings.Contains(string(raw), "SIGTERM") {
		t.Errorf("the server was not sent SIGTERM before it was killed: %q", raw)
	}
}
