package theme

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestDetect(t *testing.T) {
	askDark := func() (bool, bool) { return true, true }
	askLight := func() (bool, bool) { return false, true }
	silent := func() (bool, bool) { return false, false }
	tests := []struct {
		name, setting string
		env           map[string]string
		ask           Ask
		want          string
	}{
		{"auto asks the terminal", "auto", nil, askLight, "light"},
		{"empty is auto", "", nil, askDark, "dark"},
		{"no answer is dark", "auto", nil, silent, "dark"},
		{"no ask is dark", "auto", nil, nil, "dark"},
		{"COLORFGBG light", "auto", map[string]string{"COLORFGBG": "0;15"}, askDark, "light"},
		{"COLORFGBG dark, three fields", "auto", map[string]string{"COLORFGBG": "15;default;0"}, askLight, "dark"},
		{"unreadable COLORFGBG asks", "auto", map[string]string{"COLORFGBG": "x"}, askLight, "light"},
		{"dumb terminals are not asked", "auto", map[string]string{"TERM": "dumb"}, askLight, "dark"},
		{"explicit dark", "dark", map[string]string{"COLORFGBG": "0;15"}, askLight, "dark"},
		{"explicit light", "light", nil, askDark, "light"},
		{"NO_COLOR wins", "light", map[string]string{"NO_COLOR": "1"}, askDark, "plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, err := Detect(tt.setting, env(tt.env), tt.ask)
			if err != nil {
				t.Fatal(err)
			}
			if th.Name != tt.want {
				t.Fatalf("theme %q, want %q", th.Name, tt.want)
			}
		})
	}
	_, err := Detect("solarized", env(nil), nil)
	if err == nil || !strings.Contains(err.Error(), `"solarized"`) || !strings.Contains(err.Error(), "auto, dark or light") {
		t.Fatalf("an unknown setting gave %v, want an error naming the allowed values", err)
	}
}

// terminal opens a pty; answer, when not nil, plays the terminal: it gets
// what the program wrote and returns what the terminal sends back.
func terminal(t *testing.T, answer func(query string) string) (tty *os.File, ptm *os.File) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { ptm.Close(); tty.Close() })
	if answer != nil {
		go func() {
			buf := make([]byte, 256)
			var got string
			for !strings.Contains(got, "\x1b[c") {
				n, err := ptm.Read(buf)
				if err != nil {
					return
				}
				got += string(buf[:n])
			}
			_, _ = ptm.Write([]byte(answer(got)))
		}()
	}
	return tty, ptm
}

func TestQueryBackground(t *testing.T) {
	const da1 = "\x1b[?62;22c"
	tests := []struct {
		name     string
		answer   func(string) string
		dark, ok bool
	}{
		{"a dark background, ST", func(string) string { return "\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\" + da1 }, true, true},
		{"a light background, BEL", func(string) string { return "\x1b]11;rgb:ffff/ffff/fafa\x07" + da1 }, false, true},
		{"two-digit components", func(string) string { return "\x1b]11;rgb:20/20/20\x07" + da1 }, true, true},
		{"no OSC 11 support", func(string) string { return da1 }, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tty, _ := terminal(t, tt.answer)
			start := time.Now()
			dark, ok := QueryBackground(tty, 2*time.Second)
			if dark != tt.dark || ok != tt.ok {
				t.Fatalf("dark, ok = %v, %v; want %v, %v", dark, ok, tt.dark, tt.ok)
			}
			if took := time.Since(start); took > time.Second {
				t.Fatalf("took %v although the terminal answered", took)
			}
		})
	}
}

// TestQueryBackgroundGivesUpAndLeavesInputAlone: a terminal that answers
// nothing costs the timeout and no more, and nothing keeps reading the
// terminal afterwards.
func TestQueryBackgroundGivesUpAndLeavesInputAlone(t *testing.T) {
	tty, ptm := terminal(t, nil)
	go func() { // drain what is written, answer nothing
		buf := make([]byte, 256)
		for {
			if _, err := ptm.Read(buf); err != nil {
				return
			}
		}
	}()
	start := time.Now()
	if _, ok := QueryBackground(tty, 150*time.Millisecond); ok {
		t.Fatal("an answer from a silent terminal")
	}
	if took := time.Since(start); took < 100*time.Millisecond || took > time.Second {
		t.Fatalf("gave up after %v, want about 150ms", took)
	}
	if _, err := ptm.Write([]byte("typed\r")); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := tty.Read(buf)
		got <- string(buf[:n])
	}()
	select {
	case s := <-got:
		if !strings.Contains(s, "typed") {
			t.Fatalf("the program read %q, want the typed keys", s)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the typed keys never reached the program: something else read them")
	}
}
