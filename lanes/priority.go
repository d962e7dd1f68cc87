package lanes

import "fmt"

// Priority orders the waiters of a lane: a higher one is dequeued first.
// The zero value is Normal.
type Priority int

// The priorities, lowest first.
const (
	Background Priority = -1
	Normal     Priority = 0
	Foreground Priority = 1
)

// PriorityOf is the priority of a run started by trigger (seed): someone
// waiting at the keyboard comes first, housekeeping last.
func PriorityOf(trigger string) Priority {
	switch trigger {
	case "user", "manual":
		return Foreground
	case "cron", "heartbeat", "memory", "overflow":
		return Background
	default:
		return Normal
	}
}

// String is the priority's name: "background", "normal" or "foreground".
func (p Priority) String() string {
	switch p {
	case Background:
		return "background"
	case Normal:
		return "normal"
	case Foreground:
		return "foreground"
	default:
		return fmt.Sprintf("priority(%d)", int(p))
	}
}

// ParsePriority reads a name String returns.
func ParsePriority(name string) (Priority, error) {
	for _, p := range []Priority{Background, Normal, Foreground} {
		if p.String() == name {
			return p, nil
		}
	}
	return Normal, fmt.Errorf("lanes: unknown priority %q", name)
}

// MarshalText writes the priority by name, so snapshots read well as JSON.
func (p Priority) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (p *Priority) UnmarshalText(b []byte) error {
	v, err := ParsePriority(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}
