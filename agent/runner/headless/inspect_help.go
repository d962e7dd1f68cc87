package headless

import (
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent/runner/inspector"
)

// inspectCommands are steer's help lines for `steer inspect`, one per
// registered inspector.
func inspectCommands() string {
	var b strings.Builder
	for _, ins := range inspector.All() {
		fmt.Fprintf(&b, "  %-35s %s\n", "steer inspect "+ins.Name()+" [--json]", ins.Usage())
	}
	return b.String()
}

// inspectHelp is `steer help inspect`: every inspector's synopsis, then
// what each shows.
func inspectHelp() string {
	var b strings.Builder
	for i, ins := range inspector.All() {
		lead := "       "
		if i == 0 {
			lead = "Usage: "
		}
		b.WriteString(lead + strings.TrimSpace("steer inspect "+ins.Name()+" [--json] "+ins.Args()) + "\n")
	}
	for _, ins := range inspector.All() {
		b.WriteString("\n" + ins.Name() + ": " + ins.Help() + "\n")
	}
	return b.String()
}
