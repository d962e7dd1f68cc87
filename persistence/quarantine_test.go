package persistence

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/contextguard/engines"
)

// The quarantine's child: helperRoles["quarantine"] opens the directory,
// says "ready", waits for "go", records COUNT failures of the engine named
// by the session variable, and says "done".
func init() {
	helperRoles["quarantine"] = func(dir, engine string, in *bufio.Scanner) error {
		n, err := strconv.Atoi(os.Getenv(helperCountEnv))
		if err != nil {
			return err
		}
		s, err := Open(dir, Options{})
		if err != nil {
			return err
		}
		defer s.Close()
		fmt.Println("ready")
		if err := expectLine(in, "go"); err != nil {
			return err
		}
		qs := s.EngineQuarantines()
		for i := range n {
			if _, err := qs.Record(context.Background(), failure(engine, engines.MethodCompact, engines.ReasonTimeout, i)); err != nil {
				return fmt.Errorf("record %d: %w", i+1, err)
			}
		}
		fmt.Println("done")
		return s.Close()
	}
}

// failure is the nth failure of engine, at epoch plus n seconds.
func failure(engine string, m engines.Method, r engines.Reason, n int) engines.Quarantine {
	at := epoch.Add(time.Duration(n) * time.Second)
	return engines.Quarantine{Engine: engine, Method: m, Reason: r, Error: fmt.Sprintf("failure %d", n),
		Since: at, Last: at, Count: 1}
}

func TestQuarantineRoundTrips(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	fine := time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("here", 3600))
	in := engines.Quarantine{Engine: "notes", Method: engines.MethodAssemble, Reason: engines.ReasonCrash,
		Error: "the engine exited: exit status 3", Since: fine, Last: fine, Count: 1}
	want := in
	want.Since = fine.Truncate(time.Millisecond).UTC()
	want.Last = want.Since

	got, err := s.EngineQuarantines().Record(ctx, in)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Record = %+v, %v; want %+v", got, err, want)
	}
	for _, name := range []string{"same store", "another store", "read-only store"} {
		var st *Store
		switch name {
		case "same store":
			st = s
		case "another store":
			st = openStore(t, dir)
		default:
			ro, err := Open(dir, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ro.Close() })
			st = ro
		}
		qs := st.EngineQuarantines()
		if q, ok, err := qs.Load(ctx, "notes"); err != nil || !ok || !reflect.DeepEqual(q, want) {
			t.Errorf("%s: Load = %+v, %v, %v", name, q, ok, err)
		}
		if list, err := qs.List(ctx); err != nil || !reflect.DeepEqual(list, []engines.Quarantine{want}) {
			t.Errorf("%s: List = %+v, %v", name, list, err)
		}
	}
}

func TestQuarantineFirstFailureWins(t *testing.T) {
	ctx := context.Background()
	qs := openStore(t, t.TempDir()).EngineQuarantines()
	first := failure("notes", engines.MethodAssemble, engines.ReasonCrash, 1)
	steps := []struct {
		q    engines.Quarantine
		want engines.Quarantine
	}{
		{first, first},
		{failure("notes", engines.MethodCompact, engines.ReasonTimeout, 5),
			engines.Quarantine{Engine: "notes", Method: engines.MethodAssemble, Reason: engines.ReasonCrash,
				Error: "failure 1", Since: first.Since, Last: epoch.Add(5 * time.Second), Count: 2}},
		{failure("notes", engines.MethodIngest, engines.ReasonError, 3), // reported late
			engines.Quarantine{Engine: "notes", Method: engines.MethodAssemble, Reason: engines.ReasonCrash,
				Error: "failure 1", Since: first.Since, Last: epoch.Add(5 * time.Second), Count: 3}},
	}
	for i, step := range steps {
		got, err := qs.Record(ctx, step.q)
		if err != nil || got != step.want {
			t.Fatalf("record %d = %+v, %v; want %+v", i+1, got, err, step.want)
		}
	}
	other := failure("arch", engines.MethodInfo, engines.ReasonInvalidOutput, 9)
	if _, err := qs.Record(ctx, other); err != nil {
		t.Fatal(err)
	}
	list, err := qs.List(ctx)
	if err != nil || len(list) != 2 || list[0] != other || list[1] != steps[2].want {
		t.Errorf("List = %+v, %v; want arch then notes", list, err)
	}
}

func TestQuarantineUnknownAndClear(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	qs := openStore(t, dir).EngineQuarantines()
	if q, ok, err := qs.Load(ctx, "never"); err != nil || ok || q != (engines.Quarantine{}) {
		t.Errorf("Load of an engine never quarantined = %+v, %v, %v", q, ok, err)
	}
	if list, err := qs.List(ctx); err != nil || list == nil || len(list) != 0 {
		t.Errorf("List of none = %#v, %v; want an empty, non-nil list", list, err)
	}
	if _, err := qs.Record(ctx, engines.Quarantine{Method: engines.MethodInfo}); err == nil {
		t.Error("Record accepted an empty engine name")
	}
	if _, err := qs.Record(ctx, failure("notes", engines.MethodAssemble, engines.ReasonPanic, 1)); err != nil {
		t.Fatal(err)
	}

	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	if _, err := ro.EngineQuarantines().Clear(ctx, "notes"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Clear on a read-only store: %v, want ErrReadOnly", err)
	}
	if _, err := ro.EngineQuarantines().Record(ctx, failure("notes", engines.MethodAssemble, engines.ReasonPanic, 2)); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Record on a read-only store: %v, want ErrReadOnly", err)
	}

	for _, want := range []bool{true, false} {
		if had, err := qs.Clear(ctx, "notes"); err != nil || had != want {
			t.Errorf("Clear = %v, %v; want %v", had, err, want)
		}
	}
	if _, ok, _ := qs.Load(ctx, "notes"); ok {
		t.Error("the quarantine survived Clear")
	}
	// Cleared, the next failure starts a new quarantine.
	if q, err := qs.Record(ctx, failure("notes", engines.MethodIngest, engines.ReasonError, 7)); err != nil ||
		q.Count != 1 || q.Method != engines.MethodIngest {
		t.Errorf("Record after Clear = %+v, %v", q, err)
	}
}

// TestQuarantineConcurrentStoresLoseNoFailure records failures of one
// engine from several stores on one directory — several owners, exactly
// like processes — at once: every failure is counted.
func TestQuarantineConcurrentStoresLoseNoFailure(t *testing.T) {
	const stores, workersPerStore, records = 4, 3, 20
	ctx := context.Background()
	dir := t.TempDir()
	var all []*Store
	for range stores {
		all = append(all, openStore(t, dir))
	}
	var wg sync.WaitGroup
	errs := make(chan error, stores*workersPerStore)
	for si, s := range all {
		for w := range workersPerStore {
			wg.Go(func() {
				for i := range records {
					if _, err := s.EngineQuarantines().Record(ctx, failure("shared", engines.MethodAssemble, engines.ReasonCrash, si*1000+w*100+i)); err != nil {
						errs <- fmt.Errorf("record %d: %w", i+1, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, s := range all {
		q, ok, err := s.EngineQuarantines().Load(ctx, "shared")
		if err != nil || !ok || q.Count != stores*workersPerStore*records {
			t.Fatalf("Load = %+v, %v, %v; want %d failures counted", q, ok, err, stores*workersPerStore*records)
		}
	}
}

// TestQuarantineProcessesLoseNoFailure has three child processes and this
// one record failures of one engine at once: the first failure recorded is
// kept, and every failure is counted.
func TestQuarantineProcessesLoseNoFailure(t *testing.T) {
	const children, perChild, here = 3, 60, 30
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	first := failure("notes", engines.MethodInfo, engines.ReasonPanic, 0)
	if _, err := s.EngineQuarantines().Record(ctx, first); err != nil {
		t.Fatal(err)
	}
	var cs []*child
	for range children {
		cs = append(cs, startChild(t, "quarantine", dir, "notes", helperCountEnv+"="+strconv.Itoa(perChild)))
	}
	for _, c := range cs {
		c.expect("ready")
	}
	for _, c := range cs {
		c.send("go")
	}
	for i := range here {
		if _, err := s.EngineQuarantines().Record(ctx, failure("notes", engines.MethodAssemble, engines.ReasonError, i)); err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
	}
	for _, c := range cs {
		c.expect("done")
		if err := c.wait(); err != nil {
			t.Fatalf("child %d: %v", c.pid(), err)
		}
	}
	q, ok, err := s.EngineQuarantines().Load(ctx, "notes")
	if err != nil || !ok || q.Count != 1+children*perChild+here || q.Method != first.Method || q.Reason != first.Reason ||
		q.Error != first.Error || !q.Since.Equal(first.Since) {
		t.Errorf("Load = %+v, %v, %v; want the first failure counted with all %d", q, ok, err, 1+children*perChild+here)
	}
	integrityOK(t, s)
}
