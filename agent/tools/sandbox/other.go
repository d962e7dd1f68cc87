//go:build !linux

package sandbox

import (
	"errors"
	"syscall"
)

// errNotLinux is why nothing is confined off Linux.
var errNotLinux = errors.New("the sandbox needs Linux (Landlock and namespaces)")

func probe() Support {
	return Support{LandlockNote: "Landlock is Linux's", NetNamespaceNote: "network namespaces are Linux's"}
}

func confine(setup) error { return errNotLinux }

func execProgram(setup, []string) error { return errNotLinux }

func setNamespaces(*syscall.SysProcAttr) {}

func netNSInode() (uint64, error) { return 0, errNotLinux }
