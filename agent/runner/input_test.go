package runner

import (
	"context"
	"errors"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestSubmitKinds: Submit saves and delivers collected inputs and
// interrupts, which the database stores as follow-ups and steering; an
// interrupt aborts the streaming run and is answered in the next, and
// inputs collected meanwhile are answered together.
func TestSubmitKinds(t *testing.T) {
	store := openStore(t, t.TempDir())
	release := make(chan struct{})
	script := agenttest.NewScript(
		agenttest.Reply().Text("working").Hang(),
		agenttest.Reply().Wait(release).Text("on it").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("both").Stop(agent.StopReasonStop),
	)
	rt := newRuntime(t, store, script, Options{})
	streaming := make(chan struct{})
	var started bool
	rt.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.MessageUpdate); ok && !started {
			started = true
			close(streaming)
		}
	})
	if err := rt.Prompt(context.Background(), "start"); err != nil {
		t.Fatal(err)
	}
	within(t, streaming, "streaming")
	if _, queued, err := rt.Submit(context.Background(), agent.QueueInterrupt, "do this instead"); err != nil || !queued {
		t.Fatalf("Submit(interrupt) = queued %v, %v", queued, err)
	}
	for _, text := range []string{"a", "b"} {
		if _, queued, err := rt.Submit(context.Background(), agent.QueueCollect, text); err != nil || !queued {
			t.Fatalf("Submit(collect %s) = queued %v, %v", text, queued, err)
		}
	}
	close(release)
	waitIdle(t, rt)
	var got []string
	for _, m := range rt.State().Messages {
		got = append(got, m.TextContent())
	}
	want := []string{"start", "working", "do this instead", "on it", "a", "b", "both"}
	if len(got) != len(want) {
		t.Fatalf("transcript %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("transcript %q, want %q", got, want)
		}
	}
	if pending, err := store.PendingInputs(context.Background(), rt.SessionID()); err != nil || len(pending) != 0 {
		t.Fatalf("pending inputs left: %+v, %v", pending, err)
	}
	if _, _, err := rt.Submit(context.Background(), "shout", "x"); err == nil {
		t.Fatal("Submit took an unknown kind")
	}
}

// TestCheckInput: an input with nothing to say, or over the limit counting
// its images' data, is refused; anything else passes.
func TestCheckInput(t *testing.T) {
	image := agent.Content{Type: agent.ContentImage, Data: "abcdef"}
	tests := []struct {
		name   string
		text   string
		images []agent.Content
		want   error // nil, ErrEmptyInput, or an *InputTooLargeError of wantBytes
		bytes  int
	}{
		{"text", "hello", nil, nil, 0},
		{"an image alone", "", []agent.Content{image}, nil, 0},
		{"nothing", "", nil, ErrEmptyInput, 0},
		{"only spaces", " \n\t", nil, ErrEmptyInput, 0},
		{"at the limit", "0123456789", nil, nil, 0},
		{"over the limit", "0123456789x", nil, &InputTooLargeError{}, 11},
		{"over with an image", "hello", []agent.Content{image}, &InputTooLargeError{}, 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkInput(tt.text, tt.images, 10)
			var large *InputTooLargeError
			switch {
			case tt.bytes > 0:
				if !errors.As(err, &large) || large.Bytes != tt.bytes || large.Limit != 10 {
					t.Errorf("checkInput = %v, want %d bytes over the limit of 10", err, tt.bytes)
				}
			case err != tt.want:
				t.Errorf("checkInput = %v, want %v", err, tt.want)
			}
		})
	}
}
