// Package humanize words the counts and durations steer shows to people, so
// that the chat, the inspectors and the runner's notes say "1.2k" and "2m05s"
// alike.
package humanize

import (
	"fmt"
	"time"
)

// Tokens words a token count: 950, 1.2k, 3.4M.
func Tokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// Duration words how long something took: 850ms, 3.2s, 2m05s. Minutes keep
// counting past the hour (75m00s), so that a column of them lines up.
func Duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// Bytes words a byte count: 512 B, 1.5 KB, 3.2 MB.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTPE"[exp])
}

// Clip cuts s to n runes, ending in "…" when cut, for the one-line
// excerpts summaries and lists quote.
func Clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
