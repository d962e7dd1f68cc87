//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the hook the leader of a new process group, so that
// killGroup reaches whatever it starts (a `sleep` under `sh -c`).
func setProcessGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills process group pgid; a group already gone is no error.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
