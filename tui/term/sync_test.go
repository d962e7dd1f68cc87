package term

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

func TestSyncSupported(t *testing.T) {
	tests := []struct {
		answer string
		want   bool
	}{
		{"\x1b[?2026;2$y\x1b[?62;22c", true},
		{"\x1b[?2026;1$y\x1b[?62c", true},
		{"\x1b[?2026;0$y\x1b[?62c", false}, // not recognised
		{"\x1b[?2026;4$y\x1b[?62c", false}, // permanently reset
		{"\x1b[?62;22c", false},            // no report: DA1 alone
		{"", false},                        // no answer at all
		{"\x1b[?2026;2", false},            // cut short by the timeout
		{"\x1b[?1004;2$y", false},          // another mode's report
	}
	for _, tt := range tests {
		if got := SyncSupported([]byte(tt.answer)); got != tt.want {
			t.Errorf("SyncSupported(%q) = %v, want %v", tt.answer, got, tt.want)
		}
	}
}

func TestAnswered(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"\x1b[?62;22c", true},
		{"\x1b[?2026;2$y", false}, // DECRQM's report is not DA1's
		{"\x1b[?2026;2$y\x1b[?1;2c", true},
		{"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\", false},
		{"\x1b[?62;2", false},
	}
	for _, tt := range tests {
		if got := answered([]byte(tt.in)); got != tt.want {
			t.Errorf("answered(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestAskReadsUntilDA1: Ask sends the question before DA1 and returns the
// terminal's answers as soon as DA1's comes, well before the timeout; a
// terminal that knows nothing of 2026 still ends the wait with DA1.
func TestAskReadsUntilDA1(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		sync  bool
	}{
		{"supported", "\x1b[?2026;2$y\x1b[?62;22c", true},
		{"unknown mode", "\x1b[?62;22c", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ptm, tty, err := pty.Open()
			if err != nil {
				t.Skipf("no pty: %v", err)
			}
			defer ptm.Close()
			defer tty.Close()
			asked := make(chan string, 1)
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
				asked <- got
				_, _ = ptm.Write([]byte(tt.reply))
			}()
			start := time.Now()
			answer, ok := Ask(tty, ansi.RequestModeSynchronizedOutput, 5*time.Second)
			if !ok {
				t.Fatal("could not ask")
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("took %v although the terminal answered", took)
			}
			if q := <-asked; q != ansi.RequestModeSynchronizedOutput+"\x1b[c" {
				t.Errorf("asked %q", q)
			}
			if got := SyncSupported(answer); got != tt.sync {
				t.Errorf("answer %q: supported %v, want %v", answer, got, tt.sync)
			}
		})
	}
}
