//go:build linux

package childproc

import (
	"os/exec"
	"syscall"
)

// OwnGroup puts the child cmd starts in a process group of its own, so
// that KillGroup ends it with everything it started (npx starts node,
// typescript-language-server starts tsserver), and a Ctrl+C in the
// terminal reaches steer, not the child. Pdeathsig kills it if steer dies
// without closing it; SIGHUP and the other quit signals close it in order
// (its owner's Close).
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// KillGroup kills the process group pgid; a no-op once the group is gone.
func KillGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
