package lanes

import (
	"cmp"
	"slices"
	"time"
)

// Snapshot is what the lanes of a scheduler hold at one moment. Its slices
// are never nil, so it reads as JSON with empty arrays rather than nulls.
type Snapshot struct {
	// Taken is when the snapshot was taken.
	Taken time.Time `json:"taken"`
	// Lanes are the global and sub-agent lanes, always, then every busy
	// session lane by session id.
	Lanes []Lane `json:"lanes"`
}

// Lane is one lane in a Snapshot.
type Lane struct {
	// Name is "global", "subagent" or "session:<id>".
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Session is a session lane's session; "" for the others.
	Session string `json:"session,omitempty"`
	// Cap is how many tasks may run in the lane at once.
	Cap int `json:"cap"`
	// Running is in the order the tasks started, Waiting in the order they
	// will.
	Running []Entry `json:"running"`
	Waiting []Entry `json:"waiting"`
}

// Entry is a task in a Lane.
type Entry struct {
	// ID is the run's id (Request.ID).
	ID       string   `json:"id"`
	Session  string   `json:"session"`
	Trigger  string   `json:"trigger"`
	Priority Priority `json:"priority"`
	SubAgent bool     `json:"subAgent,omitempty"`
	// Enqueued is when the task reached this lane; Started when it started
	// running in it, zero while it waits.
	Enqueued time.Time `json:"enqueued"`
	Started  time.Time `json:"started,omitzero"`
}

// Snapshot returns what runs and what waits in each lane now.
func (s *Scheduler) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := Snapshot{Taken: s.clock.Now(), Lanes: []Lane{s.global.snapshot(), s.subagents.snapshot()}}
	sessions := make([]Lane, 0, len(s.sessions))
	for _, l := range s.sessions {
		sessions = append(sessions, l.snapshot())
	}
	slices.SortFunc(sessions, func(a, b Lane) int { return cmp.Compare(a.Session, b.Session) })
	snap.Lanes = append(snap.Lanes, sessions...)
	return snap
}

// snapshot copies l; the caller holds the scheduler's mutex.
func (l *lane) snapshot() Lane {
	return Lane{Name: l.name, Kind: l.kind, Session: l.session, Cap: l.cap,
		Running: entries(l.running), Waiting: entries(l.waiting)}
}

func entries(slots []*slot) []Entry {
	out := make([]Entry, 0, len(slots))
	for _, sl := range slots {
		r := sl.t.req
		out = append(out, Entry{ID: r.ID, Session: r.Session, Trigger: r.Trigger, Priority: sl.t.priority,
			SubAgent: r.SubAgent, Enqueued: sl.enqueued, Started: sl.started})
	}
	return out
}
