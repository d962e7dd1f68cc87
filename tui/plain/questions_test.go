package plain

import (
	"bytes"
	"context"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/form"
)

// syncBuffer is a buffer the elicitor's goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestElicitationLineByLine: a server's request for input is asked field
// by field; a bad answer is refused and asked again, an empty one takes
// the default, and the answers go back typed.
func TestElicitationLineByLine(t *testing.T) {
	schema := map[string]any{"type": "object", "required": []any{"city", "days"}, "properties": map[string]any{
		"city":  map[string]any{"type": "string", "title": "City"},
		"days":  map[string]any{"type": "integer", "title": "Days", "minimum": 1.0},
		"units": map[string]any{"type": "string", "enum": []any{"metric", "imperial"}, "default": "metric"},
		"alert": map[string]any{"type": "boolean", "title": "Alert"},
	}}
	cases := []struct {
		name   string
		lines  []string
		action string
		want   map[string]any
		out    []string // written, in order
	}{
		{"answered", []string{"y", "", "Paris", "zero", "0", "3", ""}, runner.MCPElicitAccept,
			map[string]any{"city": "Paris", "days": int64(3), "units": "metric", "alert": true},
			[]string{"MCP weather asks: Where? (/decline, /cancel)", "Alert (y or n)?", "City (required)?", "required: ", "a whole number: ", "at least 1: ", "sent to weather"}},
		{"declined", []string{"/decline"}, runner.MCPElicitDecline, nil, []string{"declined"}},
		{"cancelled halfway", []string{"maybe", "/cancel"}, runner.MCPElicitCancel, nil, []string{"yes or no", "cancelled"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out syncBuffer
			p := &printer{w: &out, lines: 2}
			type result struct {
				a   runner.MCPElicitAnswer
				err error
			}
			done := make(chan result, 1)
			go func() {
				a, err := p.elicit(context.Background(), runner.MCPElicitation{Server: "weather", Message: "Where?", Schema: schema})
				done <- result{a, err}
			}()
			for _, line := range c.lines {
				for !p.answerHead(line) { // the first question is asked on the elicitor's goroutine
					runtime.Gosched()
				}
			}
			r := <-done
			if r.err != nil || r.a.Action != c.action || (c.want != nil && !reflect.DeepEqual(r.a.Content, c.want)) {
				t.Fatalf("answer %+v, %v; want %s %v", r.a, r.err, c.action, c.want)
			}
			written, at := out.String(), 0
			for _, s := range c.out {
				i := strings.Index(written[at:], s)
				if i < 0 {
					t.Fatalf("%q not written (in order) in:\n%s", s, written)
				}
				at += i + len(s)
			}
			if len(p.asks) != 0 {
				t.Errorf("questions left: %v", p.asks)
			}
		})
	}
}

// TestQuestionsOneAtATime: a second question waits until the first is
// answered, then is asked.
func TestQuestionsOneAtATime(t *testing.T) {
	var out bytes.Buffer
	p := &printer{w: &out, lines: 2}
	first := &elicitQuestion{req: runner.MCPElicitation{Server: "a"}, fields: []form.Field{{Name: "ok", Label: "OK", Kind: form.Boolean}}, content: map[string]any{}, reply: make(chan runner.MCPElicitAnswer, 1)}
	second := &elicitQuestion{req: runner.MCPElicitation{Server: "b"}, fields: []form.Field{{Name: "ok", Label: "OK", Kind: form.Boolean}}, content: map[string]any{}, reply: make(chan runner.MCPElicitAnswer, 1)}
	p.askLocked(first)
	p.askLocked(second)
	if strings.Contains(out.String(), "MCP b asks") {
		t.Fatalf("the second question was asked while the first waits:\n%s", out.String())
	}
	p.answerHead("y")
	if !strings.Contains(out.String(), "MCP b asks") || (<-first.reply).Action != runner.MCPElicitAccept {
		t.Fatalf("after the first answer:\n%s", out.String())
	}
}
