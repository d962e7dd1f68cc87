//go:build linux

package lsp

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the server in a process group of its own, so that
// killGroup ends it with everything it started (typescript-language-server
// starts tsserver), and a Ctrl+C in the terminal reaches steer, not the
// server. Pdeathsig kills it if steer dies without closing it; SIGHUP and
// the other quit signals close it in order (Manager.Close).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the process group pgid; a no-op once the group is gone.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
