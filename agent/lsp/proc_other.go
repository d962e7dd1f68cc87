//go:build unix && !linux

package lsp

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the server in a process group of its own (see the Linux
// version; other systems have no parent-death signal).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group pgid.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
