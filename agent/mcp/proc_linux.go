//go:build linux

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the child in a process group of its own, so that
// killGroup ends it with everything it started (npx starts node, which may
// start more), and a Ctrl+C in the terminal reaches steer, not the child.
// Pdeathsig kills the child if steer dies without closing it (SIGKILL);
// SIGHUP and the other quit signals close it in order (Manager.Close).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the process group pgid; it is a no-op once the group
// is gone.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
