//go:build unix

package deferquery

import "syscall"

func stdoutIsTerminal() bool {
	var st syscall.Stat_t
	return syscall.Fstat(1, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFCHR
}
