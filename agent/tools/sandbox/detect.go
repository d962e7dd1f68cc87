package sandbox

import "sync"

// Support is what this machine offers the sandbox, probed once by Detect.
type Support struct {
	// LandlockABI is the kernel's Landlock ABI version, 0 when it has none.
	LandlockABI int
	// LandlockNote says why there is no Landlock when the kernel said
	// ("not enabled at boot"); "" otherwise.
	LandlockNote string
	// NetNamespace reports whether steer can start a command in a user and
	// network namespace of its own, as the user it runs as.
	NetNamespace bool
	// NetNamespaceNote says why it cannot ("" when it can).
	NetNamespaceNote string
}

var (
	detectOnce sync.Once
	detected   Support
)

// Detect probes the kernel on its first call, by asking for the Landlock
// ABI and starting one short process in new namespaces, and returns the
// same answer ever after. It is safe for concurrent use.
func Detect() Support {
	detectOnce.Do(func() { detected = probe() })
	return detected
}
