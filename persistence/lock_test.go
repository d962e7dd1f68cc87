package persistence

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// lockHelperEnv names the directory the helper process locks.
const lockHelperEnv = "STEER_PERSISTENCE_LOCK_HELPER_DIR"

func TestSecondOpenIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	_, err := Open(dir, Options{})
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second Open gave %v, want *LockedError", err)
	}
	want := fmt.Sprintf("state directory %s is in use by another steer process (pid %d)", s.Dir(), os.Getpid())
	if err.Error() != want {
		t.Errorf("message\n got %q\nwant %q", err, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	openStore(t, dir)
}

// TestLockHelperProcess is not a test: run by TestLockIsFreedWhenTheOwnerIsKilled
// in a child process, it opens the directory, says "locked" and waits to be
// killed.
func TestLockHelperProcess(t *testing.T) {
	dir := os.Getenv(lockHelperEnv)
	if dir == "" {
		t.Skip("helper process for TestLockIsFreedWhenTheOwnerIsKilled")
	}
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	defer s.Close()
	fmt.Println("locked")
	time.Sleep(2 * time.Minute) // bounded, so an orphan cannot linger
	os.Exit(3)
}

func TestLockIsFreedWhenTheOwnerIsKilled(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := false
	t.Cleanup(func() {
		if !reaped {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})

	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line := sc.Text(); line == "locked" || len(line) > 6 && line[:6] == "error:" {
				lines <- line
				return
			}
		}
		close(lines)
	}()
	select {
	case line, ok := <-lines:
		if !ok || line != "locked" {
			t.Fatalf("the helper did not lock the directory: %q", line)
		}
	case <-time.After(time.Minute):
		t.Fatal("the helper did not report within a minute")
	}

	_, err = Open(dir, Options{})
	var le *LockedError
	if !errors.As(err, &le) || le.PID != cmd.Process.Pid {
		t.Fatalf("Open beside the helper gave %v, want *LockedError naming pid %d", err, cmd.Process.Pid)
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	reaped = true

	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("Open after the owner was killed: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
