package runner

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
)

// LogFile is where in the state directory OpenLog writes.
const LogFile = "logs/steer.log"

// OpenLog appends JSON lines to the state directory's log file (LogFile),
// creating its directory 0700 and the file 0600; closeLog closes the file.
func OpenLog(stateDir string) (logger *slog.Logger, closeLog func(), err error) {
	path := filepath.Join(stateDir, filepath.FromSlash(LogFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, fmt.Errorf("cannot write the log %s: %v", path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot write the log %s: %v", path, err)
	}
	return slog.New(slog.NewJSONHandler(f, nil)), func() { _ = f.Close() }, nil
}
