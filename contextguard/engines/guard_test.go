package engines

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

var allMethods = []Method{MethodInfo, MethodBootstrap, MethodIngest, MethodAssemble, MethodCompact, MethodAfterTurn}

// callMethod calls method m of e with a request built from transcript()
// and returns who answered: fakeMark, LegacyName, or "" for the methods
// whose answer does not tell.
func callMethod(ctx context.Context, e Engine, m Method) (string, error) {
	msgs := transcript()
	switch m {
	case MethodInfo:
		info, err := e.Info(ctx)
		return info.Name, err
	case MethodBootstrap:
		return "", e.Bootstrap(ctx, BootstrapRequest{Session: session, Messages: msgs})
	case MethodIngest:
		return "", e.Ingest(ctx, IngestRequest{Session: session, Messages: msgs[len(msgs)-1:]})
	case MethodAssemble:
		res, err := e.Assemble(ctx, AssembleRequest{Session: session, Messages: msgs})
		if res.SystemPromptAddition == fakeMark {
			return fakeMark, err
		}
		return LegacyName, err
	case MethodCompact:
		res, err := e.Compact(ctx, CompactRequest{Session: session, Reason: CompactManual, Messages: msgs})
		switch res.Summary {
		case fakeMark:
			return fakeMark, err
		case builtinSummary:
			return LegacyName, err
		}
		return res.Summary, err
	case MethodAfterTurn:
		return "", e.AfterTurn(ctx, AfterTurnRequest{Session: session, Messages: msgs[1:4]})
	}
	panic("no method " + m)
}

func TestGuardQuarantinesEachFailure(t *testing.T) {
	kinds := []struct {
		mode   mode
		reason Reason
		text   string
	}{
		{fails, ReasonError, "the fake failed"},
		{panics, ReasonPanic, "panic: the fake panicked"},
		{hangs, ReasonTimeout, "no answer within 50ms"},
		{crashes, ReasonCrash, "exit status 3"},
		{breaks, ReasonInvalidOutput, "returned no messages"},
	}
	ctx := context.Background()
	for _, m := range allMethods {
		for _, k := range kinds {
			if k.mode == breaks && m != MethodAssemble && m != MethodCompact {
				continue // only these have a result with a contract
			}
			t.Run(string(m)+"/"+string(k.reason), func(t *testing.T) {
				f := newFake(t, map[Method]mode{m: k.mode})
				store, ev := newMemStore(), &events{}
				g := guardOf(f, store, ev)

				who, err := callMethod(ctx, g, m)
				if err != nil {
					t.Fatalf("the guarded call failed: %v", err)
				}
				if who != "" && who != LegacyName {
					t.Errorf("answered by %q, want the default engine", who)
				}
				evs := ev.list()
				if len(evs) != 1 || evs[0].Method != m || evs[0].Reason != k.reason || evs[0].StoreErr != nil ||
					evs[0].Quarantine.Count != 1 {
					t.Fatalf("events %+v, want one %s/%s", evs, m, k.reason)
				}
				want := Quarantine{Engine: fakeMark, Method: m, Reason: k.reason, Error: evs[0].Err.Error(),
					Since: epoch.Add(time.Second), Last: epoch.Add(time.Second), Count: 1}
				if got, ok, _ := store.Load(ctx, fakeMark); !ok || got != want {
					t.Errorf("stored %+v (%v), want %+v", got, ok, want)
				}
				if !strings.Contains(want.Error, k.text) {
					t.Errorf("error text %q does not say %q", want.Error, k.text)
				}
				if f.resets.Load() != 1 {
					t.Errorf("the engine was reset %d times, want once", f.resets.Load())
				}

				// Quarantined: the engine is not called again, not even
				// for its info, which is now the default engine's.
				before := f.called(m)
				if _, err := callMethod(ctx, g, m); err != nil || f.called(m) != before {
					t.Errorf("second call: %v, engine called %d more times", err, f.called(m)-before)
				}
				if info, err := g.Info(ctx); err != nil || info.Name != LegacyName {
					t.Errorf("Info while quarantined = %+v, %v; want the default engine's", info, err)
				}
				if len(ev.list()) != 1 {
					t.Errorf("calls while quarantined recorded more: %+v", ev.list())
				}
			})
		}
	}
}

func TestGuardAnswersWithTheEngineWhileItWorks(t *testing.T) {
	ctx := context.Background()
	for _, m := range allMethods {
		t.Run(string(m), func(t *testing.T) {
			f := newFake(t, nil)
			ev := &events{}
			g := guardOf(f, newMemStore(), ev)
			who, err := callMethod(ctx, g, m)
			if err != nil || (who != "" && who != fakeMark) || f.called(m) != 1 {
				t.Errorf("answer from %q, %v; engine called %d times", who, err, f.called(m))
			}
			if len(ev.list()) != 0 {
				t.Errorf("a working engine was quarantined: %+v", ev.list())
			}
		})
	}
}

func TestGuardCancellationQuarantinesNothing(t *testing.T) {
	cases := []struct {
		name    string
		mode    mode
		timeout time.Duration // the guard's limit
		ctx     func(t *testing.T, f *fake) context.Context
		want    error
	}{
		{"cancelled before the call", answer, time.Minute, func(t *testing.T, _ *fake) context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, context.Canceled},
		{"cancelled during the call", waitsForStop, time.Minute, func(t *testing.T, f *fake) context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				<-f.started
				cancel()
			}()
			t.Cleanup(cancel)
			return ctx
		}, context.Canceled},
		{"the caller's deadline passed before", answer, time.Minute, func(t *testing.T, _ *fake) context.Context {
			ctx, cancel := context.WithDeadline(context.Background(), epoch)
			t.Cleanup(cancel)
			return ctx
		}, context.DeadlineExceeded},
		{"the caller's deadline passes during the call", waitsForStop, time.Minute, func(t *testing.T, _ *fake) context.Context {
			ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			t.Cleanup(cancel)
			return ctx
		}, context.DeadlineExceeded},
	}
	for _, tc := range cases {
		for _, m := range []Method{MethodAssemble, MethodInfo, MethodCompact} {
			t.Run(tc.name+"/"+string(m), func(t *testing.T) {
				f := newFake(t, map[Method]mode{m: tc.mode})
				store, ev := newMemStore(), &events{}
				g := NewGuard(fakeMark, f, testLegacy(), GuardOptions{Timeout: tc.timeout, Store: store, OnQuarantine: ev.add})
				_, err := callMethod(tc.ctx(t, f), g, m)
				if !errors.Is(err, tc.want) {
					t.Errorf("err = %v, want %v", err, tc.want)
				}
				if qs, _ := store.List(context.Background()); len(qs) != 0 || len(ev.list()) != 0 {
					t.Errorf("a cancellation quarantined: %+v, %+v", qs, ev.list())
				}
				if tc.mode == answer && f.called(m) != 0 {
					t.Errorf("the engine was called with a done context")
				}
			})
		}
	}
}

func TestGuardInfoFollowsTheQuarantine(t *testing.T) {
	ctx := context.Background()
	f := newFake(t, map[Method]mode{MethodAssemble: fails})
	store := newMemStore()
	g := guardOf(f, store, &events{})
	infoName := func() string {
		t.Helper()
		info, err := g.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.Name
	}
	if got := infoName(); got != fakeMark {
		t.Fatalf("Info before any failure = %q", got)
	}
	if _, err := callMethod(ctx, g, MethodAssemble); err != nil {
		t.Fatal(err)
	}
	if got := infoName(); got != LegacyName {
		t.Errorf("Info while quarantined = %q, want %q", got, LegacyName)
	}
	if q, ok := g.Quarantine(ctx); !ok || q.Method != MethodAssemble {
		t.Errorf("Quarantine() = %+v, %v", q, ok)
	}
	if had, err := g.Clear(ctx); !had || err != nil {
		t.Fatalf("Clear = %v, %v; want true", had, err)
	}
	if got := infoName(); got != fakeMark {
		t.Errorf("Info after Clear = %q, want the engine's own", got)
	}
	if had, _ := g.Clear(ctx); had {
		t.Error("a second Clear found a quarantine")
	}
}

func TestGuardDelegatedCompactIsTheBuiltIn(t *testing.T) {
	ctx := context.Background()
	f := newFake(t, map[Method]mode{MethodCompact: delegates})
	ev := &events{}
	g := guardOf(f, newMemStore(), ev)
	who, err := callMethod(ctx, g, MethodCompact)
	if err != nil || who != LegacyName {
		t.Errorf("delegated compact answered by %q, %v; want the built-in compaction", who, err)
	}
	if f.called(MethodCompact) != 1 || len(ev.list()) != 0 {
		t.Errorf("engine called %d times, events %+v", f.called(MethodCompact), ev.list())
	}
}

// The default engine's own Guard calls it directly: its errors are the
// caller's, there is nothing to fall back on.
func TestGuardOfTheDefaultEngineCallsItDirectly(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("the built-in compaction failed")
	ev := &events{}
	g := NewGuard(LegacyName, Legacy(nil, func(context.Context, CompactRequest) (CompactResult, error) {
		return CompactResult{}, boom
	}), nil, GuardOptions{Store: newMemStore(), OnQuarantine: ev.add})
	if _, err := g.Compact(ctx, CompactRequest{Messages: transcript()}); !errors.Is(err, boom) {
		t.Errorf("Compact err = %v, want %v", err, boom)
	}
	if res, err := g.Assemble(ctx, AssembleRequest{Messages: transcript()}); err != nil || len(res.Messages) != len(transcript()) {
		t.Errorf("Assemble = %d messages, %v; want the transcript passed through", len(res.Messages), err)
	}
	if _, err := Legacy(nil, nil).Compact(ctx, CompactRequest{}); !errors.Is(err, ErrNoCompaction) {
		t.Errorf("Legacy without a compaction: %v", err)
	}
	if len(ev.list()) != 0 {
		t.Errorf("the default engine was quarantined: %+v", ev.list())
	}
}

func TestGuardClosedEngineIsNotQuarantined(t *testing.T) {
	ctx := context.Background()
	e := NewExternal(ExternalConfig{Name: "x", Command: []string{"true"}})
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	g := NewGuard("x", e, testLegacy(), GuardOptions{Store: newMemStore(), OnQuarantine: ev.add})
	if _, err := g.Assemble(ctx, AssembleRequest{Messages: transcript()}); !errors.Is(err, ErrClosed) {
		t.Errorf("err = %v, want ErrClosed", err)
	}
	if len(ev.list()) != 0 {
		t.Errorf("a closed engine was quarantined: %+v", ev.list())
	}
}

// TestGuardSharesQuarantinesThroughTheStore plays two steer processes (two
// guards of the same engine on one store) and a restart.
func TestGuardSharesQuarantinesThroughTheStore(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()

	// Process A's engine crashes; process B's, a moment later, errs.
	a := guardOf(newFake(t, map[Method]mode{MethodAssemble: crashes}), store, &events{})
	bFake := newFake(t, map[Method]mode{MethodCompact: fails})
	b := guardOf(bFake, store, &events{})
	if _, err := callMethod(ctx, b, MethodInfo); err != nil { // B trusts it and uses it
		t.Fatal(err)
	}
	if _, err := callMethod(ctx, a, MethodAssemble); err != nil {
		t.Fatal(err)
	}
	// B sees A's quarantine at once and does not call its engine.
	if who, err := callMethod(ctx, b, MethodCompact); err != nil || who != LegacyName || bFake.called(MethodCompact) != 0 {
		t.Fatalf("B after A's quarantine: %q, %v, engine called %d times", who, err, bFake.called(MethodCompact))
	}

	// A restart (a new guard) does not re-trust it.
	restarted := newFake(t, nil)
	c := guardOf(restarted, store, &events{})
	if who, _ := callMethod(ctx, c, MethodAssemble); who != LegacyName || restarted.called(MethodAssemble) != 0 {
		t.Errorf("after a restart: answered by %q, engine called %d times", who, restarted.called(MethodAssemble))
	}

	// Cleared elsewhere (`steer inspect engines --clear`): trusted again.
	if _, err := store.Clear(ctx, fakeMark); err != nil {
		t.Fatal(err)
	}
	if who, _ := callMethod(ctx, c, MethodAssemble); who != fakeMark {
		t.Errorf("after the clear: answered by %q, want the engine", who)
	}
}

// TestGuardFirstFailureWinsAndCountsAddUp: a call already in flight when
// another process quarantines the engine fails too; the stored quarantine
// keeps the first failure and counts both.
func TestGuardFirstFailureWinsAndCountsAddUp(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	first := guardOf(newFake(t, map[Method]mode{MethodAssemble: crashes}), store, &events{})
	slow := newFake(t, map[Method]mode{MethodIngest: failsWhenLetGo})
	secondEv := &events{}
	second := NewGuard(fakeMark, slow, testLegacy(), GuardOptions{Timeout: time.Minute, Store: store, OnQuarantine: secondEv.add})

	done := make(chan error, 1)
	go func() {
		_, err := callMethod(ctx, second, MethodIngest)
		done <- err
	}()
	<-slow.started // the second call is in flight, its engine trusted
	if _, err := callMethod(ctx, first, MethodAssemble); err != nil {
		t.Fatal(err)
	}
	close(slow.letGo)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	q, ok, _ := store.Load(ctx, fakeMark)
	if !ok || q.Method != MethodAssemble || q.Reason != ReasonCrash || q.Count != 2 || !q.Last.After(q.Since) {
		t.Errorf("stored %+v, want the first failure (assemble, crash) counted twice", q)
	}
	if evs := secondEv.list(); len(evs) != 1 || evs[0].Reason != ReasonError || evs[0].Quarantine.Reason != ReasonCrash {
		t.Errorf("second event %+v: want its own failure and the stored (first) quarantine", evs)
	}
}

func TestGuardHoldsAQuarantineTheStoreLost(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	store.set(func(s *memStore) { s.failWrite = true })
	f := newFake(t, map[Method]mode{MethodAssemble: fails})
	ev := &events{}
	g := guardOf(f, store, ev)
	if _, err := callMethod(ctx, g, MethodAssemble); err != nil {
		t.Fatal(err)
	}
	if evs := ev.list(); len(evs) != 1 || !errors.Is(evs[0].StoreErr, errStoreDown) {
		t.Fatalf("events %+v: want the store's failure reported", evs)
	}
	// The store holds nothing, yet this process keeps the engine out.
	for _, read := range []bool{true, false} {
		store.set(func(s *memStore) { s.failRead = !read })
		if who, _ := callMethod(ctx, g, MethodAssemble); who != LegacyName || f.called(MethodAssemble) != 1 {
			t.Errorf("store readable %v: answered by %q, engine called %d times", read, who, f.called(MethodAssemble))
		}
	}
}

func TestGuardWithoutStoreKeepsQuarantinesInMemory(t *testing.T) {
	ctx := context.Background()
	f := newFake(t, map[Method]mode{MethodAssemble: panics, MethodCompact: fails})
	ev := &events{}
	g := guardOf(f, nil, ev)
	for range 3 {
		if who, err := callMethod(ctx, g, MethodAssemble); err != nil || who != LegacyName {
			t.Fatalf("answered by %q, %v", who, err)
		}
	}
	if f.called(MethodAssemble) != 1 || len(ev.list()) != 1 {
		t.Errorf("engine called %d times, events %+v; want once, one", f.called(MethodAssemble), ev.list())
	}
	if q, ok := g.Quarantine(ctx); !ok || q.Reason != ReasonPanic {
		t.Errorf("Quarantine() = %+v, %v", q, ok)
	}
}

// TestGuardConcurrentFailures: many calls at once on a failing engine all
// get the default engine's answer; every failure is counted once.
func TestGuardConcurrentFailures(t *testing.T) {
	const calls = 16
	ctx := context.Background()
	f := newFake(t, map[Method]mode{MethodAssemble: fails})
	store, ev := newMemStore(), &events{}
	g := guardOf(f, store, ev)
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for range calls {
		wg.Go(func() {
			if who, err := callMethod(ctx, g, MethodAssemble); err != nil || who != LegacyName {
				errs <- fmt.Errorf("answered by %q, %v", who, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	q, _, _ := store.Load(ctx, fakeMark)
	if n := f.called(MethodAssemble); q.Count != n || len(ev.list()) != n {
		t.Errorf("%d failures, stored count %d, %d events", n, q.Count, len(ev.list()))
	}
}

func TestJudge(t *testing.T) {
	boom := errors.New("boom")
	crash := &Failure{Reason: ReasonCrash, Err: boom}
	cases := []struct {
		name      string
		callerErr error
		expired   bool
		err       error
		broken    error
		pass      error
		reason    Reason // "" when nothing fails
	}{
		{"an answer", nil, false, nil, nil, nil, ""},
		{"the caller cancelled", context.Canceled, false, context.Canceled, nil, context.Canceled, ""},
		{"the caller cancelled while the engine failed", context.Canceled, false, boom, nil, context.Canceled, ""},
		{"the caller's deadline", context.DeadlineExceeded, true, context.DeadlineExceeded, nil, context.DeadlineExceeded, ""},
		{"an error", nil, false, boom, nil, nil, ReasonError},
		{"a typed failure", nil, false, fmt.Errorf("wrapped: %w", crash), nil, nil, ReasonCrash},
		{"the limit passed", nil, true, errTimedOut, nil, nil, ReasonTimeout},
		{"a broken result", nil, false, nil, boom, nil, ReasonInvalidOutput},
		{"closed by its owner", nil, false, fmt.Errorf("call: %w", ErrClosed), nil, ErrClosed, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pass, fail := judge(tc.callerErr, tc.expired, tc.err, tc.broken, time.Second)
			if !errors.Is(pass, tc.pass) || (tc.pass == nil) != (pass == nil) {
				t.Errorf("pass = %v, want %v", pass, tc.pass)
			}
			switch {
			case tc.reason == "" && fail != nil:
				t.Errorf("fail = %v, want none", fail)
			case tc.reason != "" && (fail == nil || fail.Reason != tc.reason):
				t.Errorf("fail = %v, want reason %s", fail, tc.reason)
			}
		})
	}
}

func TestReconcile(t *testing.T) {
	stored := Quarantine{Engine: "e", Method: MethodAssemble, Reason: ReasonCrash, Count: 3}
	mine := Quarantine{Engine: "e", Method: MethodIngest, Reason: ReasonError, Count: 1}
	cases := []struct {
		name   string
		local  held
		stored Quarantine
		ok     bool
		err    error
		want   held
	}{
		{"the store holds one", held{}, stored, true, nil, held{q: stored, on: true, saved: true}},
		{"the store's replaces ours", held{q: mine, on: true}, stored, true, nil, held{q: stored, on: true, saved: true}},
		{"cleared elsewhere", held{q: stored, on: true, saved: true}, Quarantine{}, false, nil, held{}},
		{"ours never reached the store", held{q: mine, on: true}, Quarantine{}, false, nil, held{q: mine, on: true}},
		{"the store fails", held{q: mine, on: true, saved: true}, Quarantine{}, false, errStoreDown, held{q: mine, on: true, saved: true}},
		{"nothing anywhere", held{}, Quarantine{}, false, nil, held{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := reconcile(tc.local, tc.stored, tc.ok, tc.err); got != tc.want {
				t.Errorf("reconcile = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestClip(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"héllo", 2, "h…"}, // é is two bytes: the cut backs off to a rune start
	}
	for _, tc := range cases {
		if got := clip(tc.in, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
