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
	o := New(g)
	var want bytes.Buffer
	for i := range 10_000 {
		line := fmt.Sprintf("line %d\n", i)
		want.WriteString(line)
		if _, err := io.WriteString(o, line); err != nil {
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
	if _, err := o.Write([]byte("late")); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("a write after Close = %v", err)
	}
}

// TestConcurrentWritesStayWhole: each Write lands whole, never interleaved
// with another's bytes.
func TestConcurrentWritesStayWhole(t *testing.T) {
	g := &gatedWriter{open: make(chan struct{})}
	close(g.open)
	o := New(g)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				fmt.Fprintf(o, "%d-%04d|", w, i)
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

// TestAFailedWriteIsKept: after the underlying writer fails, Drain and the
// next writes report its first error and nothing more is written.
func TestAFailedWriteIsKept(t *testing.T) {
	broken := errors.New("broken pipe")
	g := &gatedWriter{open: make(chan struct{}), fail: broken}
	close(g.open)
	o := New(g)
	io.WriteString(o, "first")
	if err := o.Drain(context.Background()); !errors.Is(err, broken) {
		t.Fatalf("Drain = %v, want the write's error", err)
	}
	if _, err := io.WriteString(o, "second"); !errors.Is(err, broken) || !errors.Is(o.Err(), broken) {
		t.Fatalf("a write after the failure = %v, Err %v", err, o.Err())
	}
}

// TestDrainWaitsForWhatIsBeingWritten: a batch taken by the goroutine but
// not yet written still counts.
func TestDrainWaitsForWhatIsBeingWritten(t *testing.T) {
	g := &gatedWriter{open: make(chan struct{})}
	o := New(g)
	io.WriteString(o, "held")
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
