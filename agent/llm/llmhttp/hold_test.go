package llmhttp

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// readsBody returns one piece a read; before each read after the first it
// waits for ready (what the consumer saw by then), failing the test if the
// deltas of the reads before have not reached the consumer.
type readsBody struct {
	t      *testing.T
	pieces []string
	ready  chan string // the consumer's text so far, after each event
	seen   string
	want   []string // the consumer's text due before each read
}

func (b *readsBody) Read(p []byte) (int, error) {
	if len(b.pieces) == 0 {
		return 0, io.EOF
	}
	want := b.want[0]
	b.want = b.want[1:]
	for b.seen != want {
		select {
		case b.seen = <-b.ready:
		case <-time.After(10 * time.Second):
			b.t.Errorf("the consumer saw %q before a read, want %q", b.seen, want)
			return 0, io.ErrUnexpectedEOF
		}
	}
	n := copy(p, b.pieces[0])
	b.pieces = b.pieces[1:]
	return n, nil
}

func (b *readsBody) Close() error { return nil }

// lineStream is an SDKStream of the body's lines, read as the SDKs read
// theirs: through the body the exchange's middleware wrapped.
type lineStream struct{ scan *bufio.Scanner }

func (s *lineStream) Next() bool      { return s.scan.Scan() }
func (s *lineStream) Current() string { return s.scan.Text() }
func (s *lineStream) Err() error      { return s.scan.Err() }
func (s *lineStream) Close() error    { return nil }

// TestWhatOneReadBringsIsOneDelta: the lines one read of the body brought
// reach the consumer as one text delta, and before the next read, which
// could wait on the network.
func TestWhatOneReadBringsIsOneDelta(t *testing.T) {
	body := &readsBody{t: t, pieces: []string{"Hel\nlo\n", " wor\n", "ld\n"},
		ready: make(chan string, 16), want: []string{"", "Hello", "Hello wor"}}
	stream := agent.NewAssistantStream()
	w := agent.NewStreamWriter(context.Background(), stream, agent.Model{Provider: "p"}, time.Time{})
	go Stream(context.Background(), w, Request[string]{
		Provider: "p", Windows: Windows{Idle: time.Hour},
		Open: func(x *Exchange) (SDKStream[string], error) {
			resp, err := x.Middleware(&http.Request{}, func(*http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: http.StatusOK, Body: body}, nil
			})
			if err != nil {
				return nil, err
			}
			return &lineStream{scan: bufio.NewScanner(resp.Body)}, nil
		},
		Handle: func(s string) (bool, *agent.ProviderError) {
			if s == "" { // the blank line the body's end gains
				return false, nil
			}
			w.TextDelta(s)
			return true, nil
		},
		End:     func() (agent.StopReason, *agent.ProviderError) { return agent.StopReasonStop, nil },
		Failure: func(x *Exchange, err error) *agent.ProviderError { return x.Failure(err) },
	})
	var deltas []string
	for ev := range stream.Events() {
		if ev.Type == agent.EventTextDelta {
			deltas = append(deltas, ev.Delta)
			body.ready <- ev.Partial.TextContent()
		}
	}
	if want := []string{"Hello", " wor", "ld"}; !reflect.DeepEqual(deltas, want) {
		t.Errorf("deltas = %q, want %q", deltas, want)
	}
}
