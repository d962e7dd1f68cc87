package term

import (
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestDetectNotifier(t *testing.T) {
	tests := []struct {
		name    string
		setting string
		env     func(string) string
		want    string
	}{
		{"off", NotifyOff, env("KITTY_WINDOW_ID", "1"), "off"},
		{"bell whatever the terminal", NotifyBell, env("KITTY_WINDOW_ID", "1"), "the bell"},
		{"unknown terminal", NotifyDesktop, env("TERM", "xterm-256color"), "the bell"},
		{"empty setting is desktop", "", env("TERM", "xterm-kitty"), "OSC 99 (kitty)"},
		{"kitty in tmux", NotifyDesktop, env("KITTY_WINDOW_ID", "3", "TMUX", "/tmp/tmux-0/default,1,0", "TERM_PROGRAM", "tmux"), "OSC 99 (kitty) through tmux"},
		{"ghostty", NotifyDesktop, env("TERM_PROGRAM", "ghostty"), "OSC 777 (Ghostty)"},
		{"iTerm2 over ssh", NotifyDesktop, env("LC_TERMINAL", "iTerm2"), "OSC 9 (iTerm2)"},
		{"iTerm2", NotifyDesktop, env("TERM_PROGRAM", "iTerm.app"), "OSC 9 (iTerm2)"},
		{"WezTerm", NotifyDesktop, env("WEZTERM_PANE", "0"), "OSC 9 (WezTerm)"},
		{"foot by prefix", NotifyDesktop, env("TERM", "foot-extra"), "OSC 777 (foot)"},
		{"not foot", NotifyDesktop, env("TERM", "foo"), "the bell"},
		{"Windows Terminal", NotifyDesktop, env("WT_SESSION", "x"), "the bell"},
		{"bell in tmux is not wrapped", NotifyDesktop, env("TMUX", "x"), "the bell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectNotifier(tt.setting, tt.env).Describe(); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNotifierSequence(t *testing.T) {
	tests := []struct {
		name string
		env  func(string) string
		want string
	}{
		{"bell", env(), "\a"},
		{"OSC 9", env("ITERM_SESSION_ID", "w0"), "\x1b]9;steer: run failed: 429 too many\x07"},
		{"OSC 777", env("TERM", "xterm-ghostty"), "\x1b]777;notify;steer;run failed: 429 too many\x07"},
		{"OSC 99", env("KITTY_WINDOW_ID", "1"), "\x1b]99;i=steer:d=0;steer\x07\x1b]99;i=steer:p=body;run failed: 429 too many\x07"},
		{"OSC 9 through tmux", env("ITERM_SESSION_ID", "w0", "TMUX", "x"), "\x1bPtmux;\x1b\x1b]9;steer: run failed: 429 too many\x07\x1b\\"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The body quotes a provider's error: its escapes and line
			// breaks must not reach the terminal.
			got := DetectNotifier(NotifyDesktop, tt.env).Sequence("steer", "run failed:\n 429 \x1b[31mtoo many\x1b]0;x\x07")
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	if got := DetectNotifier(NotifyOff, env()).Sequence("steer", "x"); got != "" {
		t.Errorf("off made %q", got)
	}
}

func TestOSC777SeparatesFields(t *testing.T) {
	got := DetectNotifier(NotifyDesktop, env("TERM", "foot")).Sequence("a;b", "c;d")
	if strings.Count(got, ";") != 3 {
		t.Fatalf("%q: a semicolon inside a field would start another", got)
	}
}
