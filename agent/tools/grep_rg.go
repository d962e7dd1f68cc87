package tools

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// rgMaxColumns is the longest line ripgrep reports in full; a longer one
// comes as a preview, which keeps each JSON message small.
const rgMaxColumns = 4096

// rgMessage is the part of one line of `rg --json` that grep reads.
type rgMessage struct {
	Type string `json:"type"`
	Data struct {
		Path       rgText `json:"path"`
		Lines      rgText `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// rgText is ripgrep's arbitrary data: text when it is UTF-8, else base64
// bytes.
type rgText struct {
	Text  string `json:"text"`
	Bytes string `json:"bytes"`
}

func (t rgText) String() string {
	if t.Bytes != "" {
		if b, err := base64.StdEncoding.DecodeString(t.Bytes); err == nil {
			return string(b)
		}
	}
	return t.Text
}

// rgArgs are ripgrep's arguments for q: the same search as searchGo, with
// the glob applied by grep itself (ripgrep's --glob would override
// .gitignore) and one thread, sorted by path, for a stable order.
func rgArgs(q grepQuery) []string {
	args := []string{"--json", "--no-config", "--line-number", "--color=never", "--hidden",
		"--no-require-git", "--sort=path", "--glob=!.git",
		"--max-columns=" + strconv.Itoa(rgMaxColumns), "--max-columns-preview"}
	if q.ignoreCase {
		args = append(args, "--ignore-case")
	}
	if q.literal {
		args = append(args, "--fixed-strings")
	}
	if q.context > 0 {
		args = append(args, "--context="+strconv.Itoa(q.context))
	}
	return append(args, "--regexp="+q.pattern, "--", q.root)
}

// searchRipgrep runs q with the rg at path, stopping it once out is
// complete.
func searchRipgrep(parent context.Context, rg string, q grepQuery, out *grepOutput) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	cmd := exec.CommandContext(ctx, rg, rgArgs(q)...)
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, left: 4096}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot run ripgrep: %w", err)
	}
	stopped := false
	dec := json.NewDecoder(bufio.NewReaderSize(stdout, 64*1024))
	var skip bool     // the current file does not pass the glob
	var garbled error // output that is not ripgrep's JSON
	for !stopped {
		var m rgMessage
		if err := dec.Decode(&m); err != nil {
			if !errors.Is(err, io.EOF) {
				stopped, garbled = true, err
			}
			break
		}
		path := m.Data.Path.String()
		switch m.Type {
		case "begin":
			skip = !q.isFile && q.glob != nil && !q.glob.match(q.displayName(path))
		case "match":
			stopped = !skip && !out.match(q.displayName(path), m.Data.LineNumber, strings.TrimSuffix(m.Data.Lines.String(), "\n"))
		case "context":
			if !skip {
				out.contextLine(q.displayName(path), m.Data.LineNumber, strings.TrimSuffix(m.Data.Lines.String(), "\n"))
			}
		case "end":
			stopped = !skip && !out.endFile()
		}
	}
	if stopped {
		cancel() // ripgrep may still be searching
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case parent.Err() != nil:
		return parent.Err()
	case garbled != nil:
		return fmt.Errorf("cannot read ripgrep's output: %w", garbled)
	case stopped, err == nil:
		return nil
	case errors.As(err, &exit) && exit.ExitCode() == 1: // no match
		return nil
	}
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		return errors.New(msg)
	}
	return err
}

// limitedWriter keeps the first left bytes written to it.
type limitedWriter struct {
	w    *strings.Builder
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		n := min(len(p), l.left)
		l.w.Write(p[:n])
		l.left -= n
	}
	return len(p), nil
}
