package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// childArg is the hidden first argument that makes steer's binary the
// sandbox's child: `steer __steer-sandbox SETUP PROGRAM-ARGV...`.
const childArg = "__steer-sandbox"

// childEnv marks the environment of a process started as the child until
// it executes the program, so that a binary that never called
// MaybeRunChild refuses to start children of its own instead of recursing.
const childEnv = "STEER_SANDBOX_CHILD"

// childReady is the byte the child reports once it is confined, just
// before it executes the program: a report without it comes from a binary
// that did not act as the child.
const childReady = 0

var errNotChild = errors.New("steer's binary did not act as the sandbox's child (its main, or the test's TestMain, must call sandbox.MaybeRunChild first)")

// childFailed is the child's exit status when it could not confine itself
// or execute the program (as env(1) and timeout(1) use 125).
const childFailed = 125

// MaybeRunChild makes this process the sandbox's child when steer started
// it as one, and returns at once otherwise. The child confines itself and
// then replaces itself with the command's program, or reports why it could
// not and exits: it never returns. Call it first thing in main, and in the
// TestMain of every package whose tests run sandboxed commands (the test
// binary is then what the sandbox runs):
//
//	func TestMain(m *testing.M) {
//		sandbox.MaybeRunChild()
//		os.Exit(m.Run())
//	}
//
// The child is a process of its own that steer is waiting for, which is why
// this function, unlike the rest of the package, exits.
func MaybeRunChild() {
	if len(os.Args) < 4 || os.Args[1] != childArg {
		return
	}
	os.Exit(runChild(os.Args[2], os.Args[3:]))
}

// runChild applies the setup encoded in raw and executes argv with it; it
// returns only on failure, with the exit status, after reporting the reason
// on the setup's error descriptor.
func runChild(raw string, argv []string) int {
	var st setup
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		fmt.Fprintf(os.Stderr, "steer sandbox: bad setup: %v\n", err)
		return childFailed
	}
	var report *os.File
	if st.ErrFD > 2 { // a setup that names none would write into stdin, stdout or stderr
		report = os.NewFile(uintptr(st.ErrFD), "sandbox-report")
	}
	err := confine(st)
	if err == nil {
		os.Unsetenv(childEnv)
		if report != nil {
			_, err = report.Write([]byte{childReady})
		}
	}
	if err == nil {
		err = execProgram(st, argv)
	}
	if report == nil {
		fmt.Fprintf(os.Stderr, "steer sandbox: %v\n", err)
	} else {
		fmt.Fprint(report, err.Error())
	}
	return childFailed
}
