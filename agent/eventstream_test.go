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
