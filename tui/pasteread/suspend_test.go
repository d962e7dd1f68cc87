package pasteread

import (
	"errors"
	"os"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/cancelreader"
)

// TestSuspendEndsTheReadAndResumes: Suspend ends the blocked read (Bubble
// Tea's read loop ends), and the next read, the new loop's, reads on.
func TestSuspendEndsTheReadAndResumes(t *testing.T) {
	rp, wp, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()
	defer wp.Close()
	r, err := New(rp, func(tea.Msg) {})
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 16))
		ended <- err
	}()
	r.Suspend()
	if err := <-ended; !errors.Is(err, cancelreader.ErrCanceled) {
		t.Fatalf("the blocked read ended with %v, want the cancel", err)
	}
	if _, err := wp.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 16)
	n, err := r.Read(p)
	if err != nil || string(p[:n]) != "x" {
		t.Fatalf("the read after resuming got %q, %v", p[:n], err)
	}
}
