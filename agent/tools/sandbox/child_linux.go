package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// confine applies st to this thread, which then executes the program: the
// thread is locked so that the restrictions and the exec happen on it.
// Nothing is applied on a best-effort basis: a right the kernel cannot
// enforce is an error.
func confine(st setup) error {
	runtime.LockOSThread() // never unlocked: the thread becomes the program
	if st.NetNS {
		if err := checkOwnNetNS(st.HostNetNS); err != nil {
			return err
		}
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("cannot bring up the loopback interface: %w", err)
		}
		if err := dropNetAdmin(); err != nil {
			return fmt.Errorf("cannot drop CAP_NET_ADMIN: %w", err)
		}
	}
	if !st.usesLandlock() {
		return nil
	}
	return restrictThread(st)
}

// checkOwnNetNS fails unless this process is in another network namespace
// than host, so that a start that lost the namespace flags is refused
// rather than run on the host's network.
func checkOwnNetNS(host uint64) error {
	own, err := netNSInode()
	if err != nil {
		return err
	}
	if own == host {
		return errors.New("the command was started on the host's network, not in a namespace of its own")
	}
	return nil
}

// netNSInode identifies this process's network namespace.
func netNSInode() (uint64, error) {
	var st syscall.Stat_t
	if err := syscall.Stat("/proc/self/ns/net", &st); err != nil {
		return 0, fmt.Errorf("cannot identify the network namespace: %w", err)
	}
	return st.Ino, nil
}

// loopbackUp brings up lo, the only interface of a new network namespace,
// so that servers the command starts on localhost work.
func loopbackUp() error {
	sock, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(sock)
	req, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(sock, unix.SIOCGIFFLAGS, req); err != nil {
		return err
	}
	req.SetUint16(req.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(sock, unix.SIOCSIFFLAGS, req)
}

// dropNetAdmin clears the ambient and inheritable capabilities that
// setNamespaces gave the child, so that the program gets none from the
// sandbox.
func dropNetAdmin() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	data[0].Inheritable, data[1].Inheritable = 0, 0
	return unix.Capset(&hdr, &data[0])
}

// execProgram replaces this process with the program, closing the report
// descriptor on success so that the parent reads end of file.
func execProgram(st setup, argv []string) error {
	syscall.CloseOnExec(st.ErrFD)
	err := syscall.Exec(st.Program, argv, os.Environ())
	return fmt.Errorf("cannot run %s: %w", st.Program, err)
}
