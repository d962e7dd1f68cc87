package contextguard

import (
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestTruncateToolResultMessage(t *testing.T) {
	big, small := boring(30_000), "exit status 0"
	cases := []struct {
		name      string
		blocks    []agent.Content
		maxChars  int
		changed   bool
		wantTexts []int // the length of each text block's body after the cut, -1 for unchanged
	}{
		{"fits", []agent.Content{agent.Text(small)}, 100, false, []int{-1}},
		{"one big block", []agent.Content{agent.Text(big)}, 10_000, true, []int{10_000}},
		{"image kept", []agent.Content{image(), agent.Text(big), image()}, 10_000, true, []int{10_000}},
		{"short block kept whole, long one gets the rest", []agent.Content{agent.Text(big), agent.Text(small)}, 10_000, true, []int{10_000 - len(small), -1}},
		{"two big blocks share", []agent.Content{agent.Text(big), agent.Text(big)}, 10_000, true, []int{5_000, 5_000}},
		{"already truncated", []agent.Content{agent.Text(TruncateToolResult(big, 10_000))}, 10_000, false, []int{-1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := agent.Message{Role: agent.RoleToolResult, ToolCallID: "c", Content: c.blocks}
			before := in.Clone()
			out, changed := TruncateToolResultMessage(in, c.maxChars)
			if changed != c.changed {
				t.Fatalf("changed = %v", changed)
			}
			for i := range before.Content {
				if in.Content[i].Text != before.Content[i].Text || in.Content[i].Data != before.Content[i].Data {
					t.Fatal("the input message was modified")
				}
			}
			if len(out.Content) != len(in.Content) {
				t.Fatal("blocks were added or removed")
			}
			n := 0
			for i, b := range out.Content {
				if b.Type != agent.ContentText {
					if b.Type != in.Content[i].Type || b.Data != in.Content[i].Data {
						t.Fatal("a non-text block changed")
					}
					continue
				}
				body, _ := splitTruncated(b.Text)
				want := c.wantTexts[n]
				n++
				if want < 0 {
					if b.Text != in.Content[i].Text {
						t.Fatalf("block %d changed", i)
					}
					continue
				}
				// the suffix (about 40 bytes) comes off the budget, and newline
				// snapping may cut up to one line (27 bytes) shorter
				if len(body) > want || len(body) < want-70 {
					t.Fatalf("block %d keeps %d bytes, want about %d", i, len(body), want)
				}
				if !strings.HasPrefix(in.Content[i].Text, body) {
					t.Fatalf("block %d lost its head", i)
				}
			}
		})
	}
}

func TestTruncateToolResults(t *testing.T) {
	msgs := []agent.Message{
		userAt(boring(50_000), t0), // a user's own text is never cut
		resultFor("a", "read", boring(50_000)),
		resultFor("b", "read", "short"),
		resultFor("c", "bash", boring(20_000)+"\nerror\n"),
	}
	stored := deepCopy(msgs)
	out, n := TruncateToolResults(msgs, 16_000)
	if n != 2 || !reflect.DeepEqual(msgs, stored) {
		t.Fatalf("truncated %d; input modified: %v", n, !reflect.DeepEqual(msgs, stored))
	}
	for i, want := range []bool{false, true, false, true} {
		if IsTruncated(out[i].TextContent()) != want {
			t.Errorf("message %d truncated = %v", i, !want)
		}
	}
	if same, n := TruncateToolResults(out, 16_000); n != 0 || &same[0] != &out[0] {
		t.Fatal("a session already within its limits was copied or cut again")
	}
}
