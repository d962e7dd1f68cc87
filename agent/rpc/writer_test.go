package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestWriterWholeLines(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	const writers, lines = 8, 50
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range lines {
				line := bytes.Repeat([]byte{byte('a' + i)}, 1000)
				if err := w.Encode(map[string]string{"x": string(line)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	closeWriter(t, w)
	out := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(out) != writers*lines {
		t.Fatalf("%d lines, want %d", len(out), writers*lines)
	}
	for _, l := range out {
		var v map[string]string
		if err := json.Unmarshal([]byte(l), &v); err != nil || strings.Trim(v["x"], v["x"][:1]) != "" {
			t.Fatalf("torn line %q (%v)", l, err)
		}
	}
}

func TestWriterEscapesSeparators(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteLine([]byte("{\"id\":\"a\u2028b\u2029c\"}")); err != nil {
		t.Fatal(err)
	}
	closeWriter(t, w)
	if got, want := buf.String(), `{"id":"a\u2028b\u2029c"}`+"\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestWriterEventThatCannotBeEncoded(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	ev := agent.ToolExecutionEnd{ToolCallID: "c1", ToolName: "x", Result: agent.ToolResult{Details: make(chan int)}}
	if err := w.WriteEvent(ev, "s1"); err != nil {
		t.Fatal(err)
	}
	closeWriter(t, w)
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got["type"] != "tool_execution_end" || got["sessionId"] != "s1" || got["encodeError"] == nil {
		t.Fatalf("got %v", got)
	}
}

type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errWrite
}

var errWrite = errors.New("broken pipe")

// TestWriterKeepsFirstError: a line is taken at once; the client's failure
// shows once it is written, and then every later line is refused unwritten.
func TestWriterKeepsFirstError(t *testing.T) {
	fw := &failingWriter{}
	w := NewWriter(fw)
	if err := w.WriteLine([]byte(`{}`)); err != nil {
		t.Fatalf("first write: %v", err)
	}
	if err := w.Close(context.Background()); !errors.Is(err, errWrite) || !errors.Is(w.Err(), errWrite) {
		t.Fatalf("close: %v, Err %v", err, w.Err())
	}
	if err := w.WriteLine([]byte(`{}`)); !errors.Is(err, errWrite) || fw.n != 1 {
		t.Fatalf("second write: %v after %d writes", err, fw.n)
	}
}

// TestWriterDoesNotWaitForTheClient: a client that stops reading does not
// hold up the writes (the runtime's subscriber, persistence after it).
func TestWriterDoesNotWaitForTheClient(t *testing.T) {
	r, pw := io.Pipe() // nobody reads r until the end
	w := NewWriter(pw)
	for range 1000 {
		if err := w.WriteLine([]byte(`{"type":"message_update"}`)); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan int)
	go func() {
		b, _ := io.ReadAll(r)
		got <- strings.Count(string(b), "\n")
	}()
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if n := <-got; n != 1000 {
		t.Fatalf("the client read %d lines, want 1000", n)
	}
}

func closeWriter(t *testing.T, w *Writer) {
	t.Helper()
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}
