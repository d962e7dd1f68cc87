package runner

import (
	"strings"
	"testing"
)

func TestResolveTurn(t *testing.T) {
	// The user messages of the path are entries 1, 3 and 7: entry 3 is
	// turn 2, and turn 3 is entry 7.
	turns := []turnInfo{{1, 1, "a"}, {2, 3, "b"}, {3, 7, "c"}}
	cases := []struct {
		ref  string
		want int    // position, when err is ""
		err  string // part of the error
	}{
		{"1", 0, ""},               // index 1 and entry 1 are the same turn
		{"2", 1, ""},               // only an index: no user message is entry 2
		{"7", 2, ""},               // only an entry: there is no turn 7
		{"3", 0, "ambiguous"},      // turn 3 is entry 7, entry 3 is turn 2
		{"turn:3", 2, ""},          // the index, said so
		{"id:3", 1, ""},            // the entry, said so
		{" 2 ", 1, ""},             // spaces around
		{"turn:7", 0, "no turn 7"}, // an index past the last turn
		{"id:2", 0, "not a user message"},
		{"9", 0, "no turn 9"},
		{"0", 0, "bad turn"},
		{"-1", 0, "bad turn"},
		{"x", 0, "bad turn"},
		{"entry:1", 0, "bad turn"},
		{"", 0, "bad turn"},
	}
	for _, c := range cases {
		t.Run(c.ref, func(t *testing.T) {
			got, err := resolveTurn(turns, c.ref)
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want one saying %q", err, c.err)
			case c.err == "" && got != c.want:
				t.Fatalf("position %d, want %d", got, c.want)
			}
		})
	}
	if _, err := resolveTurn(nil, "1"); err == nil || !strings.Contains(err.Error(), "no turns") {
		t.Fatalf("a session without turns: %v", err)
	}
}

func TestScopeOf(t *testing.T) {
	cases := []struct {
		code, conversation bool
		want               RewindScope
		bad                bool
	}{
		{false, false, RewindBoth, false},
		{true, false, RewindCode, false},
		{false, true, RewindConversation, false},
		{true, true, "", true},
	}
	for _, c := range cases {
		got, err := ScopeOf(c.code, c.conversation)
		if got != c.want || (err != nil) != c.bad {
			t.Errorf("ScopeOf(%v, %v) = %q, %v; want %q (error: %v)", c.code, c.conversation, got, err, c.want, c.bad)
		}
	}
	for _, s := range []struct {
		s                  RewindScope
		code, conversation bool
	}{{RewindBoth, true, true}, {RewindCode, true, false}, {RewindConversation, false, true}} {
		if s.s.code() != s.code || s.s.conversation() != s.conversation {
			t.Errorf("%s: code %v conversation %v", s.s, s.s.code(), s.s.conversation())
		}
	}
}
