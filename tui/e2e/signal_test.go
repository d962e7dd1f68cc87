package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalDuringARun sends steer SIGTERM, and SIGHUP (a closed terminal
// window, a lost ssh connection), while a tool runs `sleep`: steer must end
// within seconds, leave the alternate screen, and leave no sleep running.
// The TUI ends at once when main cancels its context; main must cancel it
// on SIGHUP too, then abort the run and wait for the runtime to be idle.
func TestSignalDuringARun(t *testing.T) {
	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			secs := strconv.Itoa(37 + i) // a sleep no one else runs
			p := startSteerInShell(t)
			p.typeText("run sleep "+secs, "Enter")
			p.waitFor("the tool to start", "bash sleep "+secs, 10*time.Second)
			waitForSleeper(t, secs)
			pid := steerPID(t, p)
			if err := syscall.Kill(pid, sig); err != nil {
				t.Fatal(err)
			}
			took := p.waitFor("steer to end", "steer exited", 5*time.Second)
			t.Logf("steer ended %v after %v", took, sig)
			if alt := strings.TrimSpace(p.tmux("display-message", "-p", "#{alternate_on}")); alt != "0" {
				t.Errorf("the pane is still in the alternate screen after %v; the screen:\n%s", sig, p.screen())
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(sleepers(secs)) > 0 {
				if time.Now().After(deadline) {
					t.Fatalf("sleep %s still runs (pids %v) after steer ended on %v", secs, sleepers(secs), sig)
				}
				time.Sleep(20 * time.Millisecond) // poll interval
			}
		})
	}
}

// steerPID finds steer among the children of the pane's shell.
func steerPID(t *testing.T, p *pane) int {
	t.Helper()
	shell := strings.TrimSpace(p.tmux("display-message", "-p", "#{pane_pid}"))
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < 0 {
			continue
		}
		fields := strings.Fields(s[close+1:])
		comm := filepath.Base(steerBin)
		if len(comm) > 15 { // the kernel keeps 15 bytes of it
			comm = comm[:15]
		}
		if s[open+1:close] == comm && len(fields) > 1 && fields[1] == shell {
			pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
			return pid
		}
	}
	t.Fatalf("no steer process under the pane's shell %s", shell)
	return 0
}

// waitForSleeper waits for the tool's `sleep secs` to be running: the tool
// row is drawn on tool_start, a moment before the process is spawned, so
// one look right after the row appears can miss it (CI did, once).
func waitForSleeper(t *testing.T, secs string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(sleepers(secs)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no sleep %s process while the tool runs: the checks that follow would prove nothing", secs)
		}
		time.Sleep(20 * time.Millisecond) // poll interval
	}
}

// sleepers returns the processes running `sleep secs` (directly or through
// a shell), tmux clients that typed the words aside.
func sleepers(secs string) []int {
	var pids []int
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range cmdlines {
		b, err := os.ReadFile(c)
		if err != nil || len(b) == 0 {
			continue
		}
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if filepath.Base(args[0]) == "tmux" {
			continue
		}
		if strings.Contains(strings.Join(args, " "), "sleep "+secs) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(c)))
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestQuitDuringARunKillsTheTool quits with Ctrl+C twice while a tool runs
// `sleep`: the run is aborted and waited for, so no sleep is left.
func TestQuitDuringARunKillsTheTool(t *testing.T) {
	p := startSteerInShell(t)
	p.typeText("run sleep 39", "Enter")
	p.waitFor("the tool to start", "bash sleep 39", 10*time.Second)
	waitForSleeper(t, "39")
	p.typeText("", "C-c", "C-c")
	p.waitFor("steer to end", "steer exited 0", 5*time.Second)
	if alt := strings.TrimSpace(p.tmux("display-message", "-p", "#{alternate_on}")); alt != "0" {
		t.Errorf("the pane is still in the alternate screen; the screen:\n%s", p.screen())
	}
	if pids := sleepers("39"); len(pids) > 0 {
		t.Fatalf("sleep 39 still runs (pids %v) after quitting", pids)
	}
}
