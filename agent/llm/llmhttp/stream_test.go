package llmhttp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// sliceStream is an SDKStream over fixed items that ends with err.
type sliceStream struct {
	items []string
	i     int
	err   error
}

func (s *sliceStream) Next() bool {
	if s.i >= len(s.items) {
		return false
	}
	s.i++
	return true
}

func (s *sliceStream) Current() string { return s.items[s.i-1] }
func (s *sliceStream) Err() error {
	if s.i < len(s.items) {
		return nil
	}
	return s.err
}
func (s *sliceStream) Close() error { return nil }

// runStream runs r over items and returns the final message.
func runStream(t *testing.T, items []string, streamErr error, r Request[string]) agent.Message {
	t.Helper()
	stream := agent.NewAssistantStream()
	w := agent.NewStreamWriter(context.Background(), stream, agent.Model{Provider: "p"}, time.Time{})
	r.Provider, r.Windows, r.Secrets = "p", Windows{Idle: time.Hour}, []string{"sk-secret-12345678"}
	if r.Open == nil {
		r.Open = func(*Exchange) (SDKStream[string], error) { return &sliceStream{items: items, err: streamErr}, nil }
	}
	if r.Handle == nil {
		r.Handle = func(s string) (bool, *agent.ProviderError) { w.TextDelta(s); return true, nil }
	}
	if r.End == nil {
		r.End = func() (agent.StopReason, *agent.ProviderError) { return agent.StopReasonStop, nil }
	}
	if r.Failure == nil {
		r.Failure = func(x *Exchange, err error) *agent.ProviderError { return x.Failure(err) }
	}
	go Stream(context.Background(), w, r)
	for range stream.Events() {
	}
	msg, err := stream.Result(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

func TestStream(t *testing.T) {
	t.Run("items then end", func(t *testing.T) {
		msg := runStream(t, []string{"Hel", "lo"}, nil, Request[string]{})
		if msg.StopReason != agent.StopReasonStop || msg.TextContent() != "Hello" {
			t.Errorf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), msg.Error)
		}
	})
	t.Run("a request that cannot be built", func(t *testing.T) {
		msg := runStream(t, nil, nil, Request[string]{Open: func(*Exchange) (SDKStream[string], error) {
			return nil, errors.New("bad schema sk-secret-12345678")
		}})
		if e := msg.Error; e == nil || e.Kind != agent.ErrorMalformed || e.Message != "p request: bad schema [redacted]" {
			t.Errorf("error = %+v", e)
		}
	})
	t.Run("a panicking handler", func(t *testing.T) {
		msg := runStream(t, []string{"a"}, nil, Request[string]{Handle: func(string) (bool, *agent.ProviderError) { panic("boom") }})
		if e := msg.Error; e == nil || e.Kind != agent.ErrorStream || e.Message != "p provider panicked: boom" {
			t.Errorf("error = %+v", e)
		}
	})
	t.Run("an error from End keeps the text", func(t *testing.T) {
		n := 0
		msg := runStream(t, []string{"a", "b"}, nil, Request[string]{End: func() (agent.StopReason, *agent.ProviderError) {
			n++
			return "", &agent.ProviderError{Kind: agent.ErrorEmpty, Message: "cut"}
		}})
		if e := msg.Error; n != 1 || e == nil || e.Kind != agent.ErrorEmpty || msg.TextContent() != "ab" {
			t.Errorf("end called %d times, text %q, error %+v", n, msg.TextContent(), e)
		}
	})
	t.Run("the stream's error", func(t *testing.T) {
		msg := runStream(t, []string{"a"}, errors.New("unexpected token"), Request[string]{})
		if e := msg.Error; e == nil || e.Kind != agent.ErrorMalformed || !strings.Contains(e.Message, "unexpected token") {
			t.Errorf("error = %+v", e)
		}
	})
}
