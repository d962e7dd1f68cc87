package childproc

import (
	"strings"
	"testing"
)

// TestStderrTail: the lines kept, the unfinished one, the bound on a
// line, and Brief's first line of a trace.
func TestStderrTail(t *testing.T) {
	for _, tc := range []struct {
		name        string
		written     string
		last, brief string
	}{
		{name: "a few lines are all kept", written: "one\ntwo\n", last: "one|two", brief: "one|two"},
		{name: "an unfinished line comes last", written: "one\r\ntwo", last: "one|two", brief: "one|two"},
		{name: "a trace keeps its first line in brief", written: "error: unknown binary\n\n  0: frame\n  1: frame\n  2: main\n",
			last: "error: unknown binary|  0: frame|  1: frame|  2: main", brief: "error: unknown binary|…|  2: main"},
		{name: "only the last lines are kept", written: strings.Repeat("x\n", 30) + "end\n",
			last: strings.Repeat("x|", 9) + "end", brief: "x|…|end"},
		{name: "a line is bounded", written: strings.Repeat("y", 2000) + "\n", last: strings.Repeat("y", 512), brief: strings.Repeat("y", 512)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tl Tail
			if _, err := tl.Write([]byte(tc.written)); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(tl.Last(10), "|"); got != tc.last {
				t.Errorf("last %q, want %q", got, tc.last)
			}
			if got := strings.Join(tl.Brief(3), "|"); got != tc.brief {
				t.Errorf("brief %q, want %q", got, tc.brief)
			}
		})
	}
}
