package engines

import (
	"bytes"
	"log/slog"
	"sync"
)

// maxLogLine bounds one logged line of an engine's stderr; a longer run
// without a newline is logged in pieces of this size.
const maxLogLine = 4096

// StderrLog is an engine's stderr as log records: each line it writes
// becomes one record of logger ("context engine stderr", with the engine's
// name and the line), so that a JSON-lines log stays JSON lines. Use it as
// ExternalConfig.Stderr. It is safe for concurrent use.
func StderrLog(logger *slog.Logger, engine string) *LineLog {
	return &LineLog{logger: logger, engine: engine}
}

// LineLog is the writer StderrLog returns.
type LineLog struct {
	logger *slog.Logger
	engine string

	mu      sync.Mutex
	partial []byte
}

// Write logs every whole line of p, keeping a partial last line for the
// next Write; it never fails.
func (l *LineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		switch {
		case i >= 0 && i <= maxLogLine:
			l.log(l.partial[:i])
			l.partial = l.partial[i+1:]
		case i > maxLogLine || len(l.partial) > maxLogLine:
			l.log(l.partial[:maxLogLine])
			l.partial = l.partial[maxLogLine:]
		default:
			l.partial = append([]byte(nil), l.partial...) // let go of what was logged
			return len(p), nil
		}
	}
}

func (l *LineLog) log(line []byte) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	l.logger.Info("context engine stderr", "engine", l.engine, "line", string(line))
}
