package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// StateDir picks the state directory (SPEC §10), which holds the database
// and the log, and creates it 0700: flagValue (--state-dir) if set, else
// $STEER_STATE_DIR, else $XDG_STATE_HOME/steer, else
// ~/.local/state/steer. env looks the variables up (os.Getenv in
// production); the home directory comes from os.UserHomeDir.
//
// Its errors are one line saying which directory cannot be used, or how to
// name one.
func StateDir(flagValue string, env func(string) string) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = env("STEER_STATE_DIR")
	}
	if dir == "" {
		base := env("XDG_STATE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("no state directory: set --state-dir or STEER_STATE_DIR (%v)", err)
			}
			base = filepath.Join(home, ".local", "state")
		}
		dir = filepath.Join(base, "steer")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("cannot use state directory %s: %v", dir, err)
	}
	return dir, nil
}
