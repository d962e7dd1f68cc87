package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// tempPrefix starts the name of every temp directory a bash tool makes:
// steer-bash-PID-RANDOM, with the pid of the steer process that made it,
// so that a later process can tell whether its owner is gone.
const tempPrefix = "steer-bash-"

// tempDir is the directory a bash tool's confined commands get as TMPDIR,
// made on first use and shared by every command of the tool, so that a
// file one command leaves there is there for the next. RemoveTempDirs
// removes it; the next command then gets a new one.
type tempDir struct {
	mu   sync.Mutex
	path string // "" until made, and again once removed
}

// madeTempDirs are the tempDirs of this process that hold a directory.
var madeTempDirs = struct {
	sync.Mutex
	dirs map[*tempDir]bool
}{dirs: map[*tempDir]bool{}}

// sweepOnce removes, before this process makes its first temp directory,
// those that processes now gone left behind.
var sweepOnce sync.Once

func (d *tempDir) get() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.path != "" {
		return d.path, nil
	}
	sweepOnce.Do(func() { _ = removeStaleTempDirs(os.TempDir(), processAlive) })
	path, err := os.MkdirTemp("", tempPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	d.path = path
	madeTempDirs.Lock()
	madeTempDirs.dirs[d] = true
	madeTempDirs.Unlock()
	return path, nil
}

// remove removes the directory d holds, if any.
func (d *tempDir) remove() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.path == "" {
		return nil
	}
	err := os.RemoveAll(d.path)
	d.path = ""
	return err
}

// RemoveTempDirs removes the temp directories (TMPDIR) that this process's
// bash tools made for their sandboxed commands, with what the commands
// left there. Call it when steer exits, once no command runs; a tool that
// runs another command afterwards makes a new directory. Directories of a
// steer process that exited without calling it are removed by the next
// process that makes one. The error joins those of the directories that
// could not be removed.
func RemoveTempDirs() error {
	madeTempDirs.Lock()
	dirs := madeTempDirs.dirs
	madeTempDirs.dirs = map[*tempDir]bool{}
	madeTempDirs.Unlock()
	var errs []error
	for d := range dirs {
		errs = append(errs, d.remove())
	}
	return errors.Join(errs...)
}

// tempDirOwner is the pid in the name of a temp directory a bash tool
// made (steer-bash-PID-RANDOM), or 0 when name is not one.
func tempDirOwner(name string) int {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0
	}
	digits, random, ok := strings.Cut(rest, "-")
	if !ok || random == "" {
		return 0
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 || strconv.Itoa(pid) != digits {
		return 0
	}
	return pid
}

// removeStaleTempDirs removes the temp directories under root that a bash
// tool of a process no longer alive made, and that this user owns: never
// one whose process runs (alive says), nor another user's, nor a link.
func removeStaleTempDirs(root string, alive func(pid int) bool) error {
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		pid := tempDirOwner(e.Name())
		if pid == 0 || !e.IsDir() || alive(pid) {
			continue
		}
		path := filepath.Join(root, e.Name())
		if !ownedByMe(path) {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			errs = append(errs, fmt.Errorf("stale temp directory: %w", err))
		}
	}
	return errors.Join(errs...)
}

// ownedByMe reports whether path (not followed if a link) belongs to the
// user this process runs as.
func ownedByMe(path string) bool {
	info, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// processAlive reports whether process pid exists: signal 0 checks
// without sending anything, and EPERM means it exists but is another
// user's.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
