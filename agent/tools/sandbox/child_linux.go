package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The Landlock rights the sandbox handles. Reading and executing are not
// among them, so they stay allowed everywhere; every right that creates,
// changes, moves or removes a file is.
const (
	fileWrites = ll.AccessFSWriteFile | ll.AccessFSTruncate
	dirWrites  = fileWrites | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeChar |
		ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo |
		ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer
	tcp = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
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
	cfg := landlock.Config{}
	var rules []landlock.Rule
	if st.ConfineWrites {
		cfg.HandledAccessFS = dirWrites
		for i, list := range [][]string{st.Writable, st.Optional} {
			r, err := writeRules(list, i == 1)
			if err != nil {
				return err
			}
			rules = append(rules, r...)
		}
	}
	if st.DenyTCP {
		cfg.HandledAccessNet = tcp // and no port is allowed
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		return errors.New("landlock: nothing to enforce") // cannot happen with the rights above
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return unix.Close(fd)
}

// writeRules grants writing each path: a directory with everything below
// it, a file alone. A missing path is an error unless optional.
func writeRules(paths []string, optional bool) ([]landlock.Rule, error) {
	var rules []landlock.Rule
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil && optional:
			continue
		case err != nil:
			return nil, fmt.Errorf("cannot make %s writable: %w", p, err)
		case info.IsDir():
			rules = append(rules, landlock.PathAccess(dirWrites, p))
		default:
			rules = append(rules, landlock.PathAccess(fileWrites, p))
		}
	}
	return rules, nil
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
