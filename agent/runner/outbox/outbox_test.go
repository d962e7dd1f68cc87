package outbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"
)

// gatedWriter blocks every write until open is closed, like a reader that
// stopped reading.
type gatedWriter struct {
	open chan struct{}
	mu   sync.Mutex
	got  bytes.Buffer
	fail error
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	<-g.open
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail != nil {
		return 0, g.fail
	}
	return g.got.Write(p)
}

func (g *gatedWriter) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.got.String()
}

// TestAStalledReaderDoesNotHoldTheWriter: writes return at once while the
// underlying writer is blocked, and everything arrives in order once it
// reads again.
func TestAStalledReaderDoesNotHoldTheWriter(t *testing.T) {
	g := &gatedWriter{open: make(chan struct{})}
	o := New()
	out := o.To(g)
	var want bytes.Buffer
	for i := range 10_000 {
		line := fmt.Sprintf("line %d\n", i)
		want.WriteString(line)
		if _, err := io.WriteString(out, line); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := o.Drain(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Drain with the reader stalled = %v, want the context's error", err)
	}
	close(g.open)
	if err := o.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if g.String() != want.String() {
		t.Fatalf("wrote %d bytes, want %d in order", len(g.String()), want.Len())
	}
	if _, err := out.Write([]byte("late")); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("a write after Close = %v", err)
	}
}

// TestConcurrentWritesStayWhole: each Write lands whole, never interleaved
// with another's bytes.
func TestConcurrentWritesStayWhole(t *testing.T) {
	g := &gatedWriter{open: make(chan struct{})}
	close(g.open)
	o := New()
	out := o.To(g)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				fmt.Fprintf(out, "%d-%04d|", w, i)
			}
		}()
	}
	wg.Wait()
	if err := o.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := g.String()
	if len(got) != 4*1000*7 {
		t.Fatalf("wrote %d bytes, want %d", len(got), 4*1000*7)
	}
	next := map[byte]int{}
	for _, rec := range bytes.Split([]byte(got[:len(got)-1]), []byte("|")) {
		var w, i int
		if _, err := fmt.Sscanf(string(rec), "%d-%d", &w, &i); err != nil || i != next[byte(w)] {
			t.Fatalf("record %q out of order (want %d-%04d)", rec, w, next[byte(w)])
		}
		next[byte(w)]++
	}
}

// TestAFailedWriteIsKept: after a target's writer fails, its next writes
// report the first error and nothing more is written to it; another
// target goes on.
func TestAFailedWriteIsKept(t *testing.T) {
	broken := errors.New("broken pipe")
	g := &gatedWriter{open: make(chan struct{}), fail: broken}
	close(g.open)
	ok := &gatedWriter{open: make(chan struct{})}
	close(ok.open)
	o := New()
	bad, good := o.To(g), o.To(ok)
	io.WriteString(bad, "first")
	io.WriteString(good, "one ")
	if err := o.Drain(context.Background()); err != nil || !errors.Is(bad.Err(), broken) {
		t.Fatalf("Drain = %v, Err %v; want the write's error kept", err, bad.Err())
	}
	if _, err := io.WriteString(bad, "second"); !errors.Is(err, broken) {
		t.Fatalf("a write after the failure = %v", err)
	}
	io.WriteString(good, "two")
	if err := o.Close(context.Background()); err != nil || ok.String() != "one two" || good.Err() != nil {
		t.Fatalf("the other target: %v, %q", err, ok.String())
	}
}

// TestTargetsKeepTheirInterleaving: writes to two targets come out in the
// order they were made, as stdout and stderr on one terminal must.
func TestTargetsKeepTheirInterleaving(t *testing.T) {
	var mu sync.Mutex
	var log []string
	o := New()
	a, b := o.To(recorder{&mu, &log, "a"}), o.To(recorder{&mu, &log, "b"})
	for _, w := range []io.Writer{a, a, b, a, b, b} {
		io.WriteString(w, "x")
	}
	if err := o.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var runs []string // the log with a target's consecutive writes joined, however they were batched
	for _, entry := range log {
		if n := len(runs); n > 0 && runs[n-1][0] == entry[0] {
			runs[n-1] += entry[2:]
		} else {
			runs = append(runs, entry)
		}
	}
	if got := fmt.Sprint(runs); got != "[a:xx b:x a:x b:xx]" {
		t.Fatalf("written %s", got)
	}
}

type recorder struct {
	mu   *sync.Mutex
	log  *[]string
	name string
}

func (r recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.log = append(*r.log, r.name+":"+string(p))
	return len(p), nil
}

// TestDrainWaitsForWhatIsBeingWritten: a batch taken by the goroutine but
// not yet written still counts.
func TestDrainWaitsForWhatIsBeingWritten(t *testing.T) {
	g := &gatedWriter{open: make(chan struct{})}
	o := New()
	io.WriteString(o.To(g), "held")
	drained := make(chan error)
	go func() { drained <- o.Drain(context.Background()) }()
	select {
	case err := <-drained:
		t.Fatalf("Drain returned %v before the write", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(g.open)
	if err := <-drained; err != nil || g.String() != "held" {
		t.Fatalf("Drain = %v, wrote %q", err, g.String())
	}
}
