package persistence

import (
	"errors"
	"strings"
	"testing"
)

// TestAppendRewind: a conversation rewind takes the turn and what follows
// off the path and the model's context, a code rewind leaves the path as it
// is; either way the entry records the leaf before it and no message counts.
func TestAppendRewind(t *testing.T) {
	cases := []struct {
		name, scope string
		target      int
		history     string
		context     int // messages the model sees after
	}{
		{"both to the second turn", RewindBoth, 3, "1<0:user 2<1:assistant 5<2:rewind", 2},
		{"conversation to the first turn", RewindConversation, 1, "5<0:rewind", 0},
		{"code only", RewindCode, 3, "1<0:user 2<1:assistant 3<2:user 4<3:assistant 5<4:rewind", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.append(t, user("one", 1), assistantText("two", 2), user("three", 3), assistantText("four", 4))
			seq, err := f.store.AppendRewind(f.ctx, testSession, Marker{Target: c.target, Scope: c.scope, Files: 2})
			if err != nil {
				t.Fatal(err)
			}
			history, err := f.store.LoadHistory(f.ctx, testSession)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(treeShapes(history), " "); got != c.history {
				t.Fatalf("history %s, want %s", got, c.history)
			}
			last := history[len(history)-1]
			if last.Seq != seq || last.Marker != (Marker{Target: c.target, Scope: c.scope, Files: 2, Leaf: 4}) {
				t.Fatalf("the rewind entry is %+v", last)
			}
			if msgs := f.transcript(t); len(msgs) != c.context {
				t.Fatalf("the model sees %d messages, want %d", len(msgs), c.context)
			}
			if ss := f.session(t); ss.MessageCount != 4 {
				t.Fatalf("message count %d: a rewind is not a message", ss.MessageCount)
			}
		})
	}
}

func TestAppendRewindUnknownEntry(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("one", 1))
	if _, err := f.store.AppendRewind(f.ctx, testSession, Marker{Target: 9, Scope: RewindBoth}); !errors.Is(err, ErrNoEntry) {
		t.Fatalf("err %v, want ErrNoEntry", err)
	}
}
