package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
)

func TestBash(t *testing.T) {
	ws := t.TempDir()
	realWs, err := filepath.EvalSymlinks(ws)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		command  string
		want     string // the whole text, or its suffix when prefix is set
		prefix   string
		isError  bool
		exitCode int
		trunc    bool
		contains string
		// outputBytes is the whole output's size, for output cut for the model.
		outputBytes int64
	}{
		{name: "success", command: "echo hello", want: "hello"},
		{name: "no output", command: "true", want: "(no output)"},
		{name: "non-zero exit", command: "echo oops; exit 3", want: "oops\n\n[exit code 3]", isError: true, exitCode: 3},
		{name: "non-zero exit without output", command: "exit 1", want: "[exit code 1]", isError: true, exitCode: 1},
		{name: "stderr merged in order", command: "echo out; echo err >&2; echo out2", want: "out\nerr\nout2"},
		{name: "runs in the workspace", command: "pwd -P", want: realWs},
		{name: "stdin is empty", command: "cat; echo done", want: "done"},
		{name: "killed by a signal", command: "echo bye; kill -KILL $$", want: "bye\n\n[killed by signal 9 (killed)]",
			isError: true, exitCode: 137},
		{name: "invalid UTF-8", command: `printf 'a\377b\n'`, want: "a\uFFFDb"},
		{name: "whole output up to the cap", command: "seq 1 10000", prefix: "1\n2\n", want: "9999\n10000"},
		{name: "long output keeps head and tail", command: "seq 1 200000; echo LAST",
			prefix: "1\n2\n3\n", want: "199999\n200000\nLAST", trunc: true, outputBytes: 1288895 + 5,
			contains: "omitted: the output has 1.2 MB in 200001 lines; showing the first 16.0 KB and the last 32.0 KB. The full output was not kept ...]"},
		{name: "one long line", command: "head -c 200000 /dev/zero | tr '\\0' x",
			prefix: "xxx", want: "xxx", trunc: true, outputBytes: 200000, contains: "[... 147.3 KB omitted: the output has 195.3 KB in 1 lines"},
		{name: "long output and an exit code", command: "seq 1 200000; exit 4", prefix: "1\n", want: "200000\n\n[exit code 4]",
			trunc: true, outputBytes: 1288895, isError: true, exitCode: 4, contains: "omitted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := execute(t, Bash(ws), map[string]any{"command": tt.command})
			got := text(r)
			if tt.prefix == "" && got != tt.want {
				t.Errorf("text = %q, want %q", got, tt.want)
			}
			if !strings.HasPrefix(got, tt.prefix) || !strings.HasSuffix(got, tt.want) {
				t.Errorf("text = %.40q…%q, want %q…%q", got, got[max(len(got)-100, 0):], tt.prefix, tt.want)
			}
			if !strings.Contains(got, tt.contains) {
				t.Errorf("text does not contain %q", tt.contains)
			}
			if !utf8.ValidString(got) || len(got) > maxBytes+200 {
				t.Errorf("text is %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
			}
			d := r.Details.(agent.CommandDetails)
			if r.IsError != tt.isError || d.ExitCode != tt.exitCode || d.Truncated != tt.trunc || d.Aborted || d.TimedOut {
				t.Errorf("IsError %v, details %+v; want IsError %v, exit code %d, truncated %v",
					r.IsError, d, tt.isError, tt.exitCode, tt.trunc)
			}
			if tt.outputBytes != 0 && d.OutputBytes != tt.outputBytes {
				t.Errorf("outputBytes %d, want %d", d.OutputBytes, tt.outputBytes)
			}
			// The tail the details point at is the output's end, verbatim.
			if d.TailEnd > 0 {
				lastLine := strings.Split(strings.Split(tt.want, "\n\n[")[0], "\n")
				if tail := got[d.TailStart:d.TailEnd]; !strings.HasSuffix(tail, lastLine[len(lastLine)-1]) {
					t.Errorf("the tail %d:%d ends %q, want the output's last line %q", d.TailStart, d.TailEnd,
						tail[max(0, len(tail)-20):], lastLine[len(lastLine)-1])
				}
			} else if !strings.HasPrefix(got, "(no output)") && !strings.HasPrefix(got, "[") && !strings.Contains(got, "\uFFFD") {
				t.Errorf("no tail in the details of %q", got[:min(len(got), 40)])
			}
			if strings.Contains(got, "\uFFFD") && d.TailEnd != 0 {
				t.Errorf("mended output %q claims a verbatim tail %d:%d", got, d.TailStart, d.TailEnd)
			}
		})
	}
}

// run starts Execute on its own goroutine; updates receives every partial
// text and the result arrives on the returned channel.
func run(ctx context.Context, tool agent.Tool, args map[string]any) (updates <-chan string, result <-chan agent.ToolResult) {
	up := make(chan string, 1024)
	res := make(chan agent.ToolResult, 1)
	go func() {
		r, err := tool.Execute(ctx, "call-1", args, func(p agent.ToolResult) { up <- text(p) })
		if err != nil {
			r = agent.ErrorResult(err.Error())
		}
		res <- r
	}()
	return up, res
}

// awaitUpdate waits for a partial text containing want.
func awaitUpdate(t *testing.T, updates <-chan string, want string) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case u := <-updates:
			if strings.Contains(u, want) {
				return
			}
		case <-timeout:
			t.Fatalf("no update containing %q within 5s", want)
		}
	}
}

// awaitResult waits for Execute to return, at most within.
func awaitResult(t *testing.T, result <-chan agent.ToolResult, within time.Duration) agent.ToolResult {
	t.Helper()
	select {
	case r := <-result:
		return r
	case <-time.After(within):
		t.Fatalf("Execute did not return within %s", within)
		return agent.ToolResult{}
	}
}

func TestBashStreamsUpdates(t *testing.T) {
	ws := t.TempDir()
	fifo := filepath.Join(ws, "gate")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	updates, result := run(t.Context(), Bash(ws), map[string]any{"command": "echo first; read line < gate; echo $line"})

	awaitUpdate(t, updates, "first")
	select {
	case r := <-result:
		t.Fatalf("Execute returned %q before the command could finish", text(r))
	default:
	}
	if err := os.WriteFile(fifo, []byte("second\n"), 0); err != nil {
		t.Fatal(err)
	}
	r := awaitResult(t, result, 5*time.Second)
	if got := text(r); got != "first\nsecond" || r.IsError {
		t.Errorf("result %q (error %v), want %q", got, r.IsError, "first\nsecond")
	}
}

// TestBashStops cancels or times out commands whose whole process group must
// die, including a background child and processes that ignore SIGTERM.
func TestBashStops(t *testing.T) {
	tests := []struct {
		name    string
		command string
		timeout float64 // seconds; 0 means the test aborts instead
		want    string
		// exitCode is the shell's: 128+15 when SIGTERM ended it, 128+9 when
		// it ignored SIGTERM and was killed; never 0.
		exitCode int
	}{
		{name: "abort", command: "sleep 30 & echo $! > pid; echo started; wait",
			want: "started\n\n[aborted]", exitCode: 143},
		{name: "abort of the sleep itself", command: "echo $$ > pid; echo started; exec sleep 30",
			want: "started\n\n[aborted]", exitCode: 143},
		{name: "abort ignoring SIGTERM", command: "trap '' TERM; sleep 30 & echo $! > pid; echo started; wait",
			want: "started\n\n[aborted]", exitCode: 137},
		{name: "abort with the pipe held by a grandchild", command: "(trap '' TERM; sleep 30) & echo $! > pid; echo started; exec sleep 30",
			want: "started\n\n[aborted]", exitCode: 143},
		{name: "timeout", command: "sleep 30 & echo $! > pid; echo started; wait", timeout: 0.3,
			want: "started\n\n[timed out after 300ms]", exitCode: 143},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			args := map[string]any{"command": tt.command}
			if tt.timeout > 0 {
				args["timeout"] = tt.timeout
			}
			updates, result := run(ctx, Bash(ws), args)
			awaitUpdate(t, updates, "started")
			if tt.timeout == 0 {
				cancel()
			}
			r := awaitResult(t, result, 2*time.Second)

			d := r.Details.(agent.CommandDetails)
			if got := text(r); got != tt.want || !r.IsError || d.Aborted != (tt.timeout == 0) || d.TimedOut != (tt.timeout > 0) {
				t.Errorf("result %q (error %v, details %+v), want %q", got, r.IsError, d, tt.want)
			}
			if d.ExitCode != tt.exitCode {
				t.Errorf("exit code %d, want %d", d.ExitCode, tt.exitCode)
			}
			pid := readPid(t, filepath.Join(ws, "pid"))
			eventually(t, time.Second, "the background child to die", func() bool { return processGone(pid) })
		})
	}
}

func TestBashAbortBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r, err := Bash(t.TempDir()).Execute(ctx, "call-1", map[string]any{"command": "echo never"}, nil)
	if err != nil || !r.IsError || text(r) != "[aborted]" {
		t.Errorf("Execute = %q (error %v), %v; want [aborted]", text(r), r.IsError, err)
	}
	if d := r.Details.(agent.CommandDetails); d.ExitCode != -1 || !d.Aborted {
		t.Errorf("details %+v, want exit code -1 (it never ran), aborted", d)
	}
}

func TestBashBackgroundHolderDoesNotBlock(t *testing.T) {
	ws := t.TempDir()
	_, result := run(t.Context(), Bash(ws), map[string]any{"command": "sleep 30 & echo $! > pid; echo done"})
	r := awaitResult(t, result, 2*time.Second)
	if got := text(r); got != "done" || r.IsError {
		t.Errorf("result %q (error %v), want %q", got, r.IsError, "done")
	}
	// A background process the command left running is the user's; end it here.
	syscall.Kill(readPid(t, filepath.Join(ws, "pid")), syscall.SIGKILL)
}
