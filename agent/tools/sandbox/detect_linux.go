package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// probe asks the kernel what it offers.
func probe() Support {
	var s Support
	s.LandlockABI, s.LandlockNote = landlockABI()
	if err := probeNetNS(); err != nil {
		s.NetNamespaceNote = err.Error()
	} else {
		s.NetNamespace = true
	}
	return s
}

// landlockABI is the kernel's Landlock ABI, or 0 and why there is none.
func landlockABI() (int, string) {
	v, err := landlockVersion()
	switch {
	case err == nil:
		return v, ""
	case errors.Is(err, syscall.EOPNOTSUPP):
		return 0, "Landlock is not enabled at boot"
	case errors.Is(err, syscall.ENOSYS):
		return 0, ""
	default:
		return 0, err.Error()
	}
}

// probeNetNS starts a process that does nothing in the namespaces a
// Deny-network command gets, which is the only reliable test: sysctls,
// AppArmor and seccomp can each forbid what the kernel supports.
func probeNetNS() error {
	// The probe runs nothing: once the namespaces are made, it fails to
	// execute a directory. Any other failure is the namespaces'.
	cmd := &exec.Cmd{Path: "/", SysProcAttr: &syscall.SysProcAttr{}}
	setNamespaces(cmd.SysProcAttr)
	err := cmd.Run()
	var pathErr *os.PathError
	if errors.As(err, &pathErr) && errors.Is(pathErr.Err, syscall.EACCES) {
		return nil
	}
	if err == nil {
		return errors.New("the probe ran a directory")
	}
	return err
}

// setNamespaces puts the process started with attr in a new user namespace,
// mapped to steer's own uid and gid, and a new network namespace. The
// process keeps CAP_NET_ADMIN across its exec (as an ambient capability,
// which the namespace's first process may raise) to bring up its loopback;
// a uid other than 0 would lose every capability there otherwise.
func setNamespaces(attr *syscall.SysProcAttr) {
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	attr.AmbientCaps = append(attr.AmbientCaps, unix.CAP_NET_ADMIN)
	uid, gid := os.Getuid(), os.Getgid()
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}
