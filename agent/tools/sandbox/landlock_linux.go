package sandbox

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The Landlock rights the sandbox handles. Reading and executing are not
// among them, so they stay allowed everywhere; every right that creates,
// changes, moves or removes a file is.
const (
	fileWrites = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE
	dirWrites  = fileWrites | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM | unix.LANDLOCK_ACCESS_FS_REFER
	tcp = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
)

// laterRights are the rights the sandbox handles that Landlock ABI 1 does
// not know, each with the first ABI that does.
var laterRights = []struct {
	fs, net uint64
	abi     int
	name    string
}{
	{fs: unix.LANDLOCK_ACCESS_FS_REFER, abi: 2, name: "moving files between directories"},
	{fs: unix.LANDLOCK_ACCESS_FS_TRUNCATE, abi: writeABI, name: "truncation"},
	{net: tcp, abi: tcpABI, name: "TCP connect and bind"},
}

// rulesetAttr is what the ruleset enforcing st handles on a kernel of
// Landlock ABI abi (0: none). A right that kernel does not know is an
// error, never left out: a smaller ruleset would run the command less
// confined than its policy says.
func rulesetAttr(abi int, st setup) (unix.LandlockRulesetAttr, error) {
	var attr unix.LandlockRulesetAttr
	if st.ConfineWrites {
		attr.Handled_access_fs = dirWrites
	}
	if st.DenyTCP {
		attr.Handled_access_net = tcp // and no port is allowed
	}
	switch {
	case attr == unix.LandlockRulesetAttr{}:
		return attr, errors.New("landlock: nothing to enforce")
	case abi < 1:
		return unix.LandlockRulesetAttr{}, errors.New("landlock: this kernel has no Landlock")
	}
	for _, r := range laterRights {
		if abi < r.abi && (attr.Handled_access_fs&r.fs != 0 || attr.Handled_access_net&r.net != 0) {
			return unix.LandlockRulesetAttr{}, fmt.Errorf("landlock: this kernel's ABI %d cannot enforce %s (ABI %d can)", abi, r.name, r.abi)
		}
	}
	return attr, nil
}

// landlockVersion is the kernel's Landlock ABI version.
func landlockVersion() (int, error) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, errno
	}
	return int(v), nil
}

// restrictThread confines the calling thread, and the program it executes
// next, to st's Landlock rules. The caller must have locked its goroutine
// to the thread and must never unlock it, so that the restriction and the
// exec happen on that one thread; the other threads of the process stay
// unconfined and end at the exec.
func restrictThread(st setup) error {
	abi, err := landlockVersion()
	if err != nil {
		return fmt.Errorf("landlock: cannot read the ABI version: %w", err)
	}
	attr, err := rulesetAttr(abi, st)
	if err != nil {
		return err
	}
	ruleset, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	defer unix.Close(int(ruleset)) // close-on-exec as the kernel makes it; the domain outlives it
	for i, list := range [][]string{st.Writable, st.Optional} {
		if err := addWriteRules(int(ruleset), list, i == 1); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return nil
}

// addWriteRules grants writing each path: a directory with everything
// below it, a file alone. A path that cannot be opened is an error unless
// optional.
func addWriteRules(ruleset int, paths []string, optional bool) error {
	for _, p := range paths {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		switch {
		case err != nil && optional:
			continue
		case err != nil:
			return fmt.Errorf("cannot make %s writable: %w", p, &os.PathError{Op: "open", Path: p, Err: err})
		}
		err = addWriteRule(ruleset, fd)
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("cannot make %s writable: %w", p, err)
		}
	}
	return nil
}

// addWriteRule grants writing what fd (an O_PATH descriptor) opens.
func addWriteRule(ruleset, fd int) error {
	var info unix.Stat_t
	if err := unix.Fstat(fd, &info); err != nil {
		return fmt.Errorf("fstat: %w", err)
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: fileWrites, Parent_fd: int32(fd)}
	if info.Mode&unix.S_IFMT == unix.S_IFDIR {
		rule.Allowed_access = dirWrites
	}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule: %w", errno)
	}
	return nil
}
