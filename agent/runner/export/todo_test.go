package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/tools"
)

// TestExportsShowTheTodoList: Markdown and HTML open with the list's lines
// (redacted like the rest), and say nothing of a list there is none of.
func TestExportsShowTheTodoList(t *testing.T) {
	l := tools.TodoList{Items: []tools.TodoItem{{Text: "read", Status: tools.TodoDone}, {Text: "edit <b>", Status: tools.TodoInProgress},
		{Text: "push with ghp_abcdefghijklmnopqrstuvwx123456", Status: tools.TodoPending}}}
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, Session) error
		want  []string
	}{
		{"md", func(b *bytes.Buffer, s Session) error { return Markdown(b, s, NewRedactor()) },
			[]string{"## Todo (1/3 done)", "[x] read\n[~] edit <b>\n[ ] push with [redacted]"}},
		{"html", func(b *bytes.Buffer, s Session) error { return HTML(b, s, NewRedactor()) },
			[]string{"<h2>Todo (1/3 done)</h2>", "[x] read\n[~] edit &lt;b&gt;\n[ ] push with [redacted]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var with, without bytes.Buffer
			if err := tc.write(&with, Session{ID: "s1", Todo: l}); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(with.String(), w) {
					t.Errorf("the export lacks %q:\n%s", w, with.String())
				}
			}
			if err := tc.write(&without, Session{ID: "s1"}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(without.String(), "Todo") {
				t.Errorf("an export without a list shows one:\n%s", without.String())
			}
		})
	}
}
