//go:build unix && !linux

package childproc

import (
	"os/exec"
	"syscall"
)

// OwnGroup puts the child cmd starts in a process group of its own (see
// the Linux version; other systems have no parent-death signal).
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// KillGroup kills the process group pgid.
func KillGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
