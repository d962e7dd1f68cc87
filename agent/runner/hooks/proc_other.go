//go:build !unix

package hooks

import "os/exec"

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(*exec.Cmd) {}

// killGroup does nothing: exec's own cancellation kills the hook itself.
func killGroup(int) {}
