package agent_test

import (
	"context"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestWaitClosed(t *testing.T) {
	closed, open := make(chan struct{}), make(chan struct{})
	close(closed)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ch      chan struct{}
		ctx     context.Context
		wantErr bool
	}{
		{"closed", closed, context.Background(), false},
		{"closed, and the context ended too", closed, cancelled, false},
		{"open, the context ended", open, cancelled, true},
	} {
		if err := agent.WaitClosed(tc.ctx, tc.ch); (err != nil) != tc.wantErr {
			t.Errorf("%s: err %v, want an error: %v", tc.name, err, tc.wantErr)
		}
	}
}
