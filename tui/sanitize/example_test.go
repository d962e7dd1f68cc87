package sanitize_test

import (
	"fmt"

	"github.com/steer-tui/steer/tui/sanitize"
)

func ExampleString() {
	// A tool's output that tries to write the clipboard and clear the screen.
	out := "build ok\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\r\n\x1b[32mPASS\x1b[0m"
	fmt.Printf("%q\n", sanitize.String(out, sanitize.Options{}))
	fmt.Printf("%q\n", sanitize.String(out, sanitize.Options{AllowSGR: true}))
	// Output:
	// "build ok\nPASS"
	// "build ok\n\x1b[32mPASS\x1b[0m"
}
