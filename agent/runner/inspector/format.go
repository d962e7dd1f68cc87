package inspector

import (
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent/humanize"
)

// clock words an instant for a table: the time of day, with the date when
// it is not today.
func clock(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if t.YearDay() == now.YearDay() && t.Year() == now.Year() {
		return t.Format(time.TimeOnly)
	}
	return t.Format("Jan 2 15:04")
}

// left words the time until an instant, rounded up so that it reaches 0s
// only when the instant has come: "45s", "4m05s", "2h03m", "3d04h".
func left(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	s := int64((d + time.Second - 1) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	case s < 86400:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	}
	return fmt.Sprintf("%dd%02dh", s/86400, s%86400/3600)
}

// ago words how long ago an instant was: "just now", "12s ago", "5m ago",
// "3h ago", else its date; "never" for none.
func ago(t *time.Time, now time.Time) string {
	if t == nil || t.IsZero() {
		return "never"
	}
	d := now.Sub(*t)
	switch {
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return t.Local().Format("Jan 2")
}

// took words a duration in the milliseconds the trace records: "850ms",
// "2.4s", "1m12s".
func took(ms int64) string { return humanize.Duration(time.Duration(ms) * time.Millisecond) }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// stateSummary is a table's summary of its rows by state, "2 servers: 1
// ready, 1 failed", naming the states in order and leaving out those no row
// is in; with no rows it is empty.
func stateSummary[S ~string](n int, noun string, counts map[S]int, order []S) string {
	if n == 0 {
		return ""
	}
	var parts []string
	for _, st := range order {
		if c := counts[st]; c > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, st))
		}
	}
	return plural(n, noun) + ": " + strings.Join(parts, ", ")
}
