package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/persisttest/scale"
)

// BenchmarkContinue1200 is `steer run --continue "read README.md"` on a
// saved session of 1,200 messages (compacted every 250, as a 200k-token
// window makes it) with the offline scripted model: the session opened and
// repaired, one turn that reads a file, the session saved. Each run adds
// its turn to the session. Issue 27's target is under a second a run, at
// the scripted model's pace (paced); unpaced is steer's own share.
func BenchmarkContinue1200(b *testing.B) {
	s := newSandbox(b, "http://127.0.0.1:1")
	state := filepath.Join(s.dir, "state")
	store, err := persistence.Open(state, persistence.Options{})
	if err != nil {
		b.Fatal(err)
	}
	saved := scale.Session{ID: "s_continue", Workspace: s.dir, Messages: 1200, Topic: "parser", CompactEvery: 250,
		Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := scale.Import(context.Background(), store, saved); err != nil {
		b.Fatal(err)
	}
	if err := store.Close(); err != nil {
		b.Fatal(err)
	}
	readme := "# A project\n\nIts README, which each turn reads.\n"
	if err := os.WriteFile(filepath.Join(s.dir, "README.md"), []byte(readme), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, pace := range []struct{ name, flag string }{
		{"paced", ""},           // the scripted model streams 60 chunks a second
		{"unpaced", "--pace=0"}, // steer's own work alone
	} {
		b.Run(pace.name, func(b *testing.B) {
			args := []string{"run", "--continue", "read README.md"}
			if pace.flag != "" {
				args = append([]string{pace.flag}, args...)
			}
			var samples []sample
			for range runs(b) {
				got, err := run(s.steer(args...))
				if err != nil {
					b.Fatal(err)
				}
				samples = append(samples, got)
			}
			report(b, "steer", summarize(samples))
		})
	}
	check, err := persistence.Open(state, persistence.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer check.Close()
	ss, err := check.Session(context.Background(), saved.ID)
	if err != nil || ss.MessageCount <= saved.Messages {
		b.Fatalf("the runs did not continue session %s: %+v, %v", saved.ID, ss, err)
	}
}
