package agent_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func TestSleep(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"no wait on a live context", context.Background(), 0, nil},
		{"a short wait passes", context.Background(), time.Millisecond, nil},
		{"a done context ends no wait", cancelled, 0, context.Canceled},
		// An hour that returns at once shows the context, not the timer,
		// ended the wait.
		{"a done context ends a long wait", cancelled, time.Hour, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := agent.Sleep(tt.ctx, tt.d); !errors.Is(err, tt.want) {
				t.Errorf("Sleep(%s) = %v, want %v", tt.d, err, tt.want)
			}
		})
	}
}
