package checkpoint

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Change is one file a restore changes: its path, what the restore does to
// it ("restore" a changed file, "create" one that is gone, "delete" one the
// checkpoint did not have) and the lines it adds and removes (-1 for a
// binary file).
type Change struct {
	Path    string `json:"path"`
	Action  string `json:"action"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	// External is set when the file was changed outside steer since steer
	// last left the workspace (the user confirms or skips it).
	External bool `json:"external,omitempty"`
}

// The actions of a Change.
const (
	ActionRestore = "restore"
	ActionCreate  = "create"
	ActionDelete  = "delete"
)

// Plan is what restoring a checkpoint would do: the files that change, from
// the present (Now, a snapshot taken for the preview) to the checkpoint.
type Plan struct {
	Session string     `json:"session"`
	To      Checkpoint `json:"to"`
	Now     string     `json:"now"`
	Changes []Change   `json:"changes"`
}

// External is the paths of the plan's externally changed files.
func (p Plan) External() []string {
	var out []string
	for _, c := range p.Changes {
		if c.External {
			out = append(out, c.Path)
		}
	}
	return out
}

// lastRef is the state steer last left the workspace in, for a session: the
// snapshot after its last mutating tool or restore.
func lastRef(session string) string { return "refs/steer-last/" + session }

// Settle records the workspace as steer leaves it (after a mutating tool),
// so that a later preview can tell what changed outside steer.
func (s *Store) Settle(ctx context.Context, session string) error {
	if err := checkSession(session); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.take(ctx, session, "", "settle", "")
	if err != nil {
		return err
	}
	_, err = s.shadow(session).run(ctx, nil, "update-ref", lastRef(session), c.ID)
	return err
}

// Preview is the plan for restoring to: it snapshots the present and lists
// what differs, leaving out what the checkpoint left out.
func (s *Store) Preview(ctx context.Context, to Checkpoint) (Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.preview(ctx, to)
}

func (s *Store) preview(ctx context.Context, to Checkpoint) (Plan, error) {
	now, err := s.take(ctx, to.Session, "", "preview", "")
	if err != nil {
		return Plan{}, err
	}
	g := s.shadow(to.Session)
	changes, err := diffTrees(ctx, g, now.ID, to.ID)
	if err != nil {
		return Plan{}, err
	}
	external := map[string]bool{}
	if last, err := g.line(ctx, nil, "rev-parse", "-q", "--verify", lastRef(to.Session)); err == nil && last != "" {
		out, err := g.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", "--name-only", last, now.ID)
		if err != nil {
			return Plan{}, err
		}
		for _, p := range nulSplit(out) {
			external[p] = true
		}
	}
	kept := changes[:0]
	for _, c := range changes {
		if leftOut(to.LeftOut, c.Path) || leftOut(now.LeftOut, c.Path) {
			continue // the checkpoint or the present does not hold it: never touched
		}
		c.External = external[c.Path]
		kept = append(kept, c)
	}
	return Plan{Session: to.Session, To: to, Now: now.ID, Changes: kept}, nil
}

// leftOut reports whether path is, or lies under, one of left.
func leftOut(left []LeftOut, path string) bool {
	for _, l := range left {
		if l.Path == path || strings.HasSuffix(l.Path, "/") && strings.HasPrefix(path, l.Path) {
			return true
		}
	}
	return false
}

// diffTrees is the changes that take commit from to commit to.
func diffTrees(ctx context.Context, g shadow, from, to string) ([]Change, error) {
	st, err := g.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to)
	if err != nil {
		return nil, err
	}
	num, err := g.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", "--numstat", from, to)
	if err != nil {
		return nil, err
	}
	lines := map[string][2]int{}
	// numstat -z: "added\tremoved\tpath\0"
	for _, f := range nulSplit(num) {
		parts := strings.SplitN(f, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		a, errA := strconv.Atoi(parts[0])
		r, errR := strconv.Atoi(parts[1])
		if errA != nil || errR != nil {
			a, r = -1, -1
		}
		lines[parts[2]] = [2]int{a, r}
	}
	f := nulSplit(st)
	var out []Change
	for i := 0; i+1 < len(f); i += 2 {
		c := Change{Path: f[i+1], Action: ActionRestore}
		switch f[i] {
		case "A":
			c.Action = ActionCreate
		case "D":
			c.Action = ActionDelete
		}
		l := lines[c.Path]
		c.Added, c.Removed = l[0], l[1]
		out = append(out, c)
	}
	return out, nil
}

// Options of a restore.
type RestoreOptions struct {
	// Skip lists paths to leave alone (externally changed files the user
	// skips).
	Skip []string
}

// Restore carries out plan: the files it names (but those skipped) become
// the checkpoint's, then the result is recorded as a KindRestore checkpoint,
// which Restore returns. A journal written first lets Recover finish or
// roll back a restore that was cut short. The plan must be fresh: if the
// workspace changed since the preview, Restore refuses.
func (s *Store) Restore(ctx context.Context, plan Plan, opts RestoreOptions) (Checkpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh, err := s.preview(ctx, plan.To)
	if err != nil {
		return Checkpoint{}, err
	}
	if !samePaths(fresh.Changes, plan.Changes) {
		return Checkpoint{}, fmt.Errorf("the workspace changed since the preview: preview again")
	}
	skip := map[string]bool{}
	for _, p := range opts.Skip {
		skip[p] = true
	}
	j := journal{Session: plan.Session, From: fresh.Now, To: plan.To.ID}
	for _, c := range fresh.Changes {
		if !skip[c.Path] {
			j.Paths = append(j.Paths, c.Path)
		}
	}
	if err := s.writeJournal(j); err != nil {
		return Checkpoint{}, err
	}
	if err := s.apply(ctx, j.Session, j.To, j.Paths); err != nil {
		return Checkpoint{}, fmt.Errorf("restore (the journal stays; the next start finishes or rolls it back): %w", err)
	}
	return s.finish(ctx, j, plan.To.Turn)
}

// finish records a completed restore and drops its journal.
func (s *Store) finish(ctx context.Context, j journal, turn string) (Checkpoint, error) {
	c, err := s.take(ctx, j.Session, turn, KindRestore, j.From)
	if err != nil {
		return Checkpoint{}, err
	}
	if _, err := s.shadow(j.Session).run(ctx, nil, "update-ref", lastRef(j.Session), c.ID); err != nil {
		return Checkpoint{}, err
	}
	return c, s.dropJournal()
}

func samePaths(a, b []Change) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || a[i].Action != b[i].Action {
			return false
		}
	}
	return true
}
