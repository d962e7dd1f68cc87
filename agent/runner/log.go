package runner

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// LogFile is where in the state directory OpenLog writes.
const LogFile = "logs/steer.log"

// LogEnv names the environment variable that sets the log's level:
// "debug", "info" (the default), "warn" or "error". At debug the store
// logs every SQLite statement it runs (persistence.Options.Log).
const LogEnv = "STEER_LOG"

// LogLevel is the level LogEnv asks for in getenv's environment; a value
// that names no level is an error that says which ones do.
func LogLevel(getenv func(string) string) (slog.Level, error) {
	v := strings.TrimSpace(getenv(LogEnv))
	if v == "" {
		return slog.LevelInfo, nil
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(v)); err != nil || strings.ContainsAny(v, "+-") {
		return 0, fmt.Errorf("%s=%s: want debug, info, warn or error", LogEnv, v)
	}
	return l, nil
}

// OpenLog appends JSON lines at level and above to the state directory's
// log file (LogFile), creating its directory 0700 and the file 0600;
// closeLog closes the file.
func OpenLog(stateDir string, level slog.Level) (logger *slog.Logger, closeLog func(), err error) {
	path := filepath.Join(stateDir, filepath.FromSlash(LogFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, fmt.Errorf("cannot write the log %s: %v", path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot write the log %s: %v", path, err)
	}
	return slog.New(slog.NewJSONHandler(f, &slog.HandlerOptions{Level: level})), func() { _ = f.Close() }, nil
}
