package headless

import (
	"strings"
	"testing"
)

// TestHelpNamesItsCommand: each command's help starts with its usage line,
// and steer's own lists every command that has help.
func TestHelpNamesItsCommand(t *testing.T) {
	own, ok := Help("")
	if !ok || !strings.HasPrefix(own, "steer — ") {
		t.Fatalf("Help(\"\") = %.40q, %v", own, ok)
	}
	for _, command := range []string{"run", "rpc", "sessions"} {
		text, ok := Help(command)
		if !ok || !strings.HasPrefix(text, "Usage: steer "+command) {
			t.Errorf("Help(%q) = %.40q, %v", command, text, ok)
		}
		if !strings.Contains(own, "  steer "+command) {
			t.Errorf("steer's help does not list %q", command)
		}
	}
	if text, ok := Help("nope"); ok || text != own {
		t.Errorf("Help(nope) = %.40q, %v; want steer's own and false", text, ok)
	}
}
