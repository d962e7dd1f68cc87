package persistence

import (
	"context"
	"database/sql"
	"testing"
)

// TestFinishRunKeepsTheReason: the reason a run did not complete is read
// back by Run and ListRuns beside its outcome.
func TestFinishRunKeepsTheReason(t *testing.T) {
	f := newFixture(t)
	end := RunEnd{Outcome: "failed", Reason: "context_overflow", Error: "prompt is too long", Ended: at(50)}
	if err := f.store.FinishRun(f.ctx, testRun, end); err != nil {
		t.Fatal(err)
	}
	r, err := f.store.Run(f.ctx, testRun)
	if err != nil || r.Outcome != end.Outcome || r.Reason != end.Reason || r.Error != end.Error || !r.Ended.Equal(end.Ended) {
		t.Errorf("Run = %+v, %v; want %+v", r, err, end)
	}
	runs, err := f.store.ListRuns(f.ctx, RunsOptions{SessionID: testSession})
	if err != nil || len(runs) != 1 || runs[0].Reason != end.Reason {
		t.Errorf("ListRuns = %+v, %v; want one run with reason %q", runs, err, end.Reason)
	}
}

// TestRunReasonAfterUpgrade: a run recorded before migration 0009 keeps
// its outcome ("aborted" included) and reads with no reason.
func TestRunReasonAfterUpgrade(t *testing.T) {
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 8)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO sessions (id, workspace, created_at, updated_at) VALUES ('old', '/w', 1, 1);
		INSERT INTO runs (run_id, session_id, "trigger", started_at, ended_at, outcome, error)
		VALUES ('r_old', 'old', 'user', 1, 2, 'aborted', 'Request was aborted')`)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := openStore(t, dir).Run(context.Background(), "r_old")
	if err != nil || got.Outcome != "aborted" || got.Reason != "" || got.Error != "Request was aborted" {
		t.Errorf("Run(r_old) = %+v, %v; want the old aborted record with no reason", got, err)
	}
}
