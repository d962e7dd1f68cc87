package input

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/mention"
	"github.com/steer-tui/steer/tui/msgs"
)

// withFiles is an editor whose "@" lists the files of a new workspace,
// its index walked.
func withFiles(t *testing.T, files map[string]string) (Model, string) {
	t.Helper()
	ws := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix := mention.New(ws)
	t.Cleanup(ix.Close)
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := newInput()
	m.d.Files = func() *mention.Index { return ix }
	return m, ws
}

// drive hands msg to the editor and then what its Cmds answer, as the
// program would; it returns the messages meant for others.
func drive(m Model, msg tea.Msg) (Model, []tea.Msg) {
	var out []tea.Msg
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		if b, ok := next.(tea.BatchMsg); ok {
			for _, c := range b {
				if c != nil {
					queue = append(queue, c())
				}
			}
			continue
		}
		switch next.(type) {
		case tea.KeyMsg, mentionFoundMsg, imageProbedMsg:
			var cmd tea.Cmd
			m, cmd = m.Update(next)
			if cmd != nil {
				queue = append(queue, cmd())
			}
		case nil:
		default:
			out = append(out, next)
		}
	}
	return m, out
}

func typeDriven(m Model, s string) Model {
	for _, r := range s {
		m, _ = drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

func TestMentionToken(t *testing.T) {
	m, _ := withFiles(t, nil)
	for text, want := range map[string]string{
		"what is in @READ": "@READ",
		"@":                "@",
		"a@b":              "",
		"@done and more":   "",
		`see @"my no`:      `@"my no`,
		`@"closed" x`:      "",
	} {
		m.SetValue(text)
		if got := m.mentionToken(); got != want {
			t.Errorf("mentionToken(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestMentionPicks: Tab inserts a file with a space after it, a directory
// without (its entries come next), Enter picks like Tab, and a sent text
// carries no attachment paths for mentions: the runner reads them.
func TestMentionPicks(t *testing.T) {
	m, ws := withFiles(t, map[string]string{"README.md": "x"})
	if err := os.Mkdir(filepath.Join(ws, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "docs", "guide.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ix := mention.New(ws)
	t.Cleanup(ix.Close)
	_ = ix.Wait(context.Background())
	m.d.Files = func() *mention.Index { return ix }

	m = typeDriven(m, "see @doc")
	m, _ = drive(m, tea.KeyMsg{Type: tea.KeyTab})
	if m.Value() != "see @docs/" || !m.mentionOpen() || m.men.matches[0].Path != "docs/guide.md" {
		t.Fatalf("after Tab on a directory: %q, list %+v", m.Value(), m.men.matches)
	}
	if _, ok := m.Submit(tea.KeyMsg{Type: tea.KeyEnter}); ok {
		t.Fatal("Enter in the list sent the text")
	}
	m, _ = drive(m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.Value() != "see @docs/guide.md " || m.mentionOpen() {
		t.Fatalf("after Enter: %q, open %v", m.Value(), m.mentionOpen())
	}
	if _, req := press(m, enter); !reflect.DeepEqual(req, msgs.SteerMsg{Text: "see @docs/guide.md"}) {
		t.Fatalf("sent %#v", req)
	}
}

// TestPastedPaths: a pasted image path is a chip, sent beside the text;
// a path that is no image is typed as pasted, and says why.
func TestPastedPaths(t *testing.T) {
	m, ws := withFiles(t, map[string]string{"shot.png": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "fake.png": "text"})
	m = typeText(m, "look ")
	m, _ = drive(m, pasteKey("'"+filepath.Join(ws, "shot.png")+"'"))
	want := []agent.Attachment{{Path: filepath.Join(ws, "shot.png"), Size: 16}}
	if !reflect.DeepEqual(m.Attachments(), want) || m.Value() != "look " || !m.keys.Detach.Enabled() {
		t.Fatalf("after the paste: %q, chips %+v", m.Value(), m.Attachments())
	}
	if !strings.Contains(m.View(), "📎 shot.png · 16 B") {
		t.Fatalf("no chip in the view:\n%s", m.View())
	}
	fake := filepath.Join(ws, "fake.png")
	m, others := drive(m, pasteKey(fake))
	if m.Value() != "look "+fake || len(others) != 1 || others[0].(msgs.HintMsg).Text != "not attached: "+fake+" is not a PNG, JPEG, GIF or WebP image" {
		t.Fatalf("a fake image: %q, %v", m.Value(), others)
	}
	m.SetValue("look")
	if _, req := press(m, enter); !reflect.DeepEqual(req, msgs.SteerMsg{Text: "look", Attach: []string{filepath.Join(ws, "shot.png")}}) {
		t.Fatalf("sent %#v", req)
	}
	m, _ = withFiles(t, nil)
	m, _ = drive(m, pasteKey(filepath.Join(ws, "shot.png")))
	m, _ = drive(m, tea.KeyMsg{Type: tea.KeyCtrlX})
	if len(m.Attachments()) != 0 || m.keys.Detach.Enabled() {
		t.Fatalf("ctrl+x left %+v", m.Attachments())
	}
}
