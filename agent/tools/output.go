package tools

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/contextguard"
)

const (
	// headKeep and tailKeep are how much of the start and the end of an
	// output too long for one result the result shows; together with the
	// marker between them they stay within maxBytes.
	headKeep = 16 * 1024
	tailKeep = 32 * 1024
	// snapShare is the part of the head (its end) or the tail (its start)
	// searched for a newline to cut at, so that the model sees whole lines.
	snapShare = 5
	// maxOutputFileBytes bounds the file keeping a command's full output: a
	// command printing without end cannot fill the disk.
	maxOutputFileBytes = 1 << 30
	// maxOutputFiles is how many full-output files the output directory
	// keeps; older ones are removed when a command starts.
	maxOutputFiles = 100
	// outputFilePerm keeps outputs private: they may hold anything.
	outputFilePerm = 0o600
)

// outputFilePattern names the files an output directory holds.
var outputFilePattern = regexp.MustCompile(`^bash-\d{8}-\d{6}-[A-Za-z0-9_-]+\.log$`)

// capture receives a command's output: the first headKeep bytes stay in
// memory, the tail in a tailBuffer (which also feeds the live updates), and
// all of it, up to maxOutputFileBytes, goes to a file when there is an
// output directory. Memory stays bounded whatever the command prints. It is
// safe for concurrent use.
type capture struct {
	tail *tailBuffer

	mu       sync.Mutex
	head     []byte
	file     *os.File // nil without an output directory or after an error
	buf      *bufio.Writer
	written  int64 // bytes in the file
	fileFull bool  // maxOutputFileBytes was reached
	fileErr  error // why the file stopped, if it did
}

// newCapture starts a capture whose full output goes to a new file in dir,
// or nowhere when dir is "". A file that cannot be created is reported by
// the result, not as an error: the command still runs.
func newCapture(dir, callID string, now time.Time) *capture {
	c := &capture{tail: newTailBuffer()}
	if dir == "" {
		return c
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		c.fileErr = err
		return c
	}
	pruneOutputs(dir, maxOutputFiles-1)
	name := fmt.Sprintf("bash-%s-%s.log", now.Format("20060102-150405"), fileSafe(callID))
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, outputFilePerm)
	if err != nil {
		c.fileErr = err
		return c
	}
	c.file, c.buf = f, bufio.NewWriterSize(f, 64*1024)
	return c
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	if room := headKeep - len(c.head); room > 0 {
		c.head = append(c.head, p[:min(room, len(p))]...)
	}
	if c.buf != nil && !c.fileFull {
		chunk := p[:min(int64(len(p)), maxOutputFileBytes-c.written)]
		n, err := c.buf.Write(chunk)
		c.written += int64(n)
		switch {
		case err != nil:
			c.fileErr, c.buf = err, nil
		case len(chunk) < len(p):
			c.fileFull = true
		}
	}
	c.mu.Unlock()
	return c.tail.Write(p)
}

// captured is a command's output as the model reads it, and how that text
// holds the output (see agent.OutputWindow).
type captured struct {
	text      string
	window    agent.OutputWindow
	truncated bool // text leaves some of the output out
	path      string
}

// finish closes the file and returns the command's output as the model
// reads it, with the file's path when the output was cut. A file holding
// nothing the result does not is removed.
func (c *capture) finish() captured {
	c.mu.Lock()
	defer c.mu.Unlock()
	path := c.closeFile()
	all, total := c.tail.raw()
	endsAt := total
	if bytes.HasSuffix(all, []byte{'\n'}) {
		endsAt-- // validText leaves the final line end off
	}
	if total <= int64(len(all)) {
		if path != "" {
			os.Remove(path)
		}
		text := validText(all)
		out := captured{text: text, window: agent.OutputWindow{OutputBytes: total}}
		if int64(len(text)) == endsAt { // verbatim: nothing mended
			out.window.TailEndsAt, out.window.TailEnd = endsAt, len(text)
		}
		return out
	}
	head := c.head[:snapHeadAt(c.head)]
	tail := all[max(0, len(all)-tailKeep):]
	tail = tail[snapTailAt(tail):]
	omitted := total - int64(len(head)) - int64(len(tail))
	lines := c.tail.lineCount()
	marker := fmt.Sprintf("\n\n[... %s omitted: the output has %s in %d lines; showing the first %s and the last %s. %s ...]\n\n",
		humanize.Bytes(omitted), humanize.Bytes(total), lines, humanize.Bytes(int64(len(head))), humanize.Bytes(int64(len(tail))),
		c.whereFull(path))
	start := len(validText(head)) + len(marker)
	tailText := validText(tail)
	body := validText(head) + marker + tailText
	out := captured{text: contextguard.TruncateToolResult(body, maxBytes), truncated: true, path: path,
		window: agent.OutputWindow{OutputBytes: total}}
	verbatim := len(tailText) == len(bytes.TrimSuffix(tail, []byte{'\n'}))
	if out.text == body && verbatim { // the tail is where it was put, as it was
		out.window.TailStart, out.window.TailEnd, out.window.TailEndsAt = start, len(body), endsAt
	}
	return out
}

// whereFull says where the full output is, or why it is not kept.
func (c *capture) whereFull(path string) string {
	switch {
	case path != "" && c.fileFull:
		return fmt.Sprintf("The first %s of the output are in %s", humanize.Bytes(maxOutputFileBytes), path)
	case path != "":
		return "Full output: " + path + " (use read with offset, grep or tail on it)"
	case c.fileErr != nil:
		return fmt.Sprintf("The full output could not be kept: %v", c.fileErr)
	}
	return "The full output was not kept"
}

// closeFile flushes and closes the output file and returns its path, "" when
// there is none (any more).
func (c *capture) closeFile() string {
	if c.file == nil {
		return ""
	}
	path := c.file.Name()
	if c.buf != nil {
		if err := c.buf.Flush(); err != nil && c.fileErr == nil {
			c.fileErr = err
		}
	}
	if err := c.file.Close(); err != nil && c.fileErr == nil {
		c.fileErr = err
	}
	c.file, c.buf = nil, nil
	if c.fileErr != nil {
		os.Remove(path)
		return ""
	}
	return path
}

// snapHeadAt is where to cut head: after its last newline when one lies in
// the last 1/snapShare of it, else at its end.
func snapHeadAt(head []byte) int {
	from := len(head) - len(head)/snapShare
	if i := bytes.LastIndexByte(head[from:], '\n'); i >= 0 {
		return from + i + 1
	}
	return len(head)
}

// snapTailAt is where to start tail: after its first newline when one lies
// in the first 1/snapShare of it, else at a rune start.
func snapTailAt(tail []byte) int {
	if i := bytes.IndexByte(tail[:len(tail)/snapShare], '\n'); i >= 0 {
		return i + 1
	}
	return len(tail) - len(trimPartialRune(tail))
}

// validText is b as valid UTF-8 without its final newline.
func validText(b []byte) string {
	return strings.ToValidUTF8(string(bytes.TrimSuffix(b, []byte{'\n'})), "\uFFFD")
}

// fileSafe keeps the characters of s that are safe in a file name.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return -1
	}, s)
	if s == "" {
		return "call"
	}
	return s[:min(len(s), 64)]
}

// pruneOutputs removes the oldest output files of dir beyond keep.
func pruneOutputs(dir string, keep int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && outputFilePattern.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) <= keep {
		return
	}
	slices.Sort(names) // the names start with their creation time
	for _, n := range names[:len(names)-keep] {
		os.Remove(filepath.Join(dir, n))
	}
}
