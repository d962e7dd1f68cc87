package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func intStream() *agent.EventStream[int, int] {
	return agent.NewEventStream(func(v int) bool { return v < 0 }, func(v int) int { return -v })
}

func TestEventStreamResult(t *testing.T) {
	s := intStream()
	go func() {
		for i := 1; i <= 3; i++ {
			s.Push(context.Background(), i)
		}
		s.Push(context.Background(), -42)
		s.End(0)
	}()
	var got []int
	for v := range s.Events() {
		got = append(got, v)
	}
	r, err := s.Result(context.Background())
	if err != nil || r != 42 || len(got) != 4 {
		t.Fatalf("events %v, result %d, %v", got, r, err)
	}
}

func TestEventStreamResultWithoutCompletion(t *testing.T) {
	s := intStream()
	s.End(7)
	if r, _ := s.Result(context.Background()); r != 7 {
		t.Fatalf("result = %d, want the fallback", r)
	}
}

func TestEventStreamProducerNeverBlocksForever(t *testing.T) {
	tests := []struct {
		name   string
		giveUp func(s *agent.EventStream[int, int], cancel context.CancelFunc)
	}{
		{"consumer closes", func(s *agent.EventStream[int, int], _ context.CancelFunc) { s.Close() }},
		{"context cancelled", func(_ *agent.EventStream[int, int], cancel context.CancelFunc) { cancel() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := intStream()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan int)
			go func() {
				pushed := 0
				for s.Push(ctx, 1) {
					pushed++
				}
				done <- pushed
			}()
			tt.giveUp(s, cancel)
			select {
			case n := <-done:
				if n < 1 {
					t.Errorf("pushed %d before giving up", n)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the producer stayed blocked")
			}
		})
	}
}

func TestEventStreamResultHonoursContext(t *testing.T) {
	s := intStream()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Result(ctx); err == nil {
		t.Fatal("Result returned without a result or an error")
	}
}

func unboundedIntStream() *agent.EventStream[int, int] {
	return agent.NewUnboundedEventStream(func(v int) bool { return v < 0 }, func(v int) int { return -v })
}

func TestUnboundedEventStreamNeverMakesThePushWait(t *testing.T) {
	const n = 100 * 64 // far beyond any channel buffer
	s := unboundedIntStream()
	pushed := make(chan struct{})
	go func() {
		for i := 1; i <= n; i++ {
			s.Push(context.Background(), i)
		}
		s.Push(context.Background(), -1)
		s.End(0)
		close(pushed)
	}()
	within(t, pushed, "every push to return with nobody reading")
	want := 1
	for v := range s.Events() {
		if v != want && !(want == n+1 && v == -1) {
			t.Fatalf("event %d, want %d: out of order", v, want)
		}
		want++
	}
	if want != n+2 {
		t.Fatalf("read %d events, want %d", want-1, n+1)
	}
	if r, _ := s.Result(context.Background()); r != 1 {
		t.Fatalf("result = %d, want 1", r)
	}
}

func TestUnboundedEventStreamAfterClose(t *testing.T) {
	s := unboundedIntStream()
	for i := 1; i <= 3*64; i++ {
		s.Push(context.Background(), i)
	}
	<-s.Events()
	s.Close()
	if s.Push(context.Background(), 7) {
		t.Error("Push to a closed stream reported delivery")
	}
	s.End(5)
	closed := make(chan struct{})
	go func() {
		for range s.Events() {
		}
		close(closed)
	}()
	within(t, closed, "the channel to close after End")
	if r, _ := s.Result(context.Background()); r != 5 {
		t.Fatalf("result = %d, want the fallback", r)
	}
}
