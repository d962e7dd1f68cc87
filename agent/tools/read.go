package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
)

const (
	// numberWidth is the room a line number and its tab take, counted in
	// the byte cap so that a page stays within maxBytes.
	numberWidth = 8
	// sniffLen is how much of a file read inspects to decide it is binary.
	sniffLen = 8 * 1024
	// binaryInvalidPercent is the share of invalid UTF-8 bytes in the sniffed
	// head above which a file counts as binary rather than text in an old
	// encoding with a few odd bytes.
	binaryInvalidPercent = 10
)

// ReadDetails describes what a read call returned, for the UI.
type ReadDetails struct {
	// Path is the file that was read, resolved against the workspace.
	Path string `json:"path"`
	// TotalLines counts every line of the file.
	TotalLines int `json:"totalLines"`
	// StartLine and EndLine are the 1-based, inclusive range returned; both
	// are 0 for an empty file.
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
	// Truncated is set when the line or byte caps stopped the result before
	// the range asked for was complete.
	Truncated bool `json:"truncated"`
}

type readTool struct {
	ws       workspace
	readable readableDirs
	d        Diagnoser // WithDiagnostics
}

// Read returns the read tool, which shows a text file of the workspace in
// pages of at most maxLines lines and maxBytes bytes, each line numbered,
// and an image as image content. Of opts it takes WithReadableDirs and
// WithDiagnostics (a read warms the file's language server up).
func Read(workspace string, opts ...Option) agent.Tool {
	o := optionsOf(opts)
	return readTool{ws: newWorkspace(workspace), readable: readableOf(o.readable), d: o.diagnoser}
}

var readSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "Path to the file to read (relative to the workspace or absolute)."},
		"offset": {"type": "integer", "minimum": 1, "description": "Line number to start reading from (1-indexed, default 1)."},
		"limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines to read (default and maximum 2000)."}
	},
	"required": ["path"],
	"additionalProperties": false
}`)

func (readTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "read",
		Description: fmt.Sprintf("Read the contents of a file. Supports text files and images (png, jpeg, gif, webp), "+
			"which are sent as attachments. Text is returned with each line prefixed by its line number and a tab "+
			"(the prefix is not part of the file), at most %d lines or %d KB per call; use offset/limit for large "+
			"files, and when you need the whole file continue with offset until it is complete. "+
			"Lines longer than %d characters are cut. Binary files are refused.",
			maxLines, maxBytes/1024, maxLineRunes),
		Parameters: readSchema,
	}
}

// Describe reports the file the call reads.
func (t readTool) Describe(args map[string]any) Access {
	p := stringArg(args, "path")
	return t.ws.accessRead(t.readable, p, "read "+clip(p, summaryLen))
}

func (t readTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	target, refused := t.ws.confineRead(ctx, t.readable, stringArg(args, "path"))
	if refused != nil {
		return *refused, nil
	}
	path := target.path
	if t.d != nil {
		t.d.Warm(path)
	}
	offset := max(intArg(args, "offset", 1), 1)
	limit := min(max(intArg(args, "limit", maxLines), 1), maxLines)

	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return agent.ErrorResult(fmt.Sprintf("file not found: %s", path)), nil
	case err != nil:
		return agent.ErrorResult(fmt.Sprintf("cannot read %s: %v", path, err)), nil
	case info.IsDir():
		return agent.ErrorResult(fmt.Sprintf("%s is a directory; use ls to list it", path)), nil
	case !info.Mode().IsRegular():
		// A FIFO or device could block the read forever or never end.
		return agent.ErrorResult(fmt.Sprintf("%s is not a regular file: it is %s", path, typeName(info.Mode()))), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("cannot read %s: %v", path, err)), nil
	}
	defer f.Close()

	br := bufio.NewReaderSize(f, 64*1024)
	head, _ := br.Peek(sniffLen)
	if mime := imageType(head); mime != "" {
		return readImage(br, path, mime, info.Size()), nil
	}
	if looksBinary(head) {
		return agent.ErrorResult(fmt.Sprintf("%s is a binary file (%s); read only shows text and images",
			path, humanize.Bytes(info.Size()))), nil
	}
	p, err := readPage(ctx, br, offset, limit)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("cannot read %s: %v", path, err)), nil
	}
	details := ReadDetails{Path: path, TotalLines: p.total}
	if p.total == 0 {
		return agent.ToolResult{Content: []agent.Content{agent.Text("(empty file)")}, Details: details}, nil
	}
	if offset > p.total {
		return agent.ToolResult{
			Content: []agent.Content{agent.Text(fmt.Sprintf(
				"offset %d is past the end of %s, which has %d lines", offset, path, p.total))},
			Details: details,
			IsError: true,
		}, nil
	}
	details.StartLine, details.EndLine = offset, offset+len(p.lines)-1
	details.Truncated = p.capped && details.EndLine < p.total
	text := numbered(p.lines, offset)
	if details.EndLine < p.total {
		// The note is the page's important tail: a guard that cuts the page
		// keeps it ("total" is one of its important-tail words).
		text += fmt.Sprintf("\n\n[showing lines %d-%d of %d in total; use offset=%d to continue]",
			details.StartLine, details.EndLine, p.total, details.EndLine+1)
	}
	return agent.ToolResult{Content: []agent.Content{agent.Text(text)}, Details: details}, nil
}

// numbered joins lines, each prefixed by its line number (from first) and a
// tab; the numbers are right-aligned to the widest one.
func numbered(lines []string, first int) string {
	width := len(strconv.Itoa(first + len(lines) - 1))
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%*d\t%s", width, first+i, l)
	}
	return b.String()
}

// page is the part of a file one read call returns.
type page struct {
	lines  []string
	total  int  // lines in the whole file
	capped bool // maxLines or maxBytes ended the page
}

// readPage collects up to limit lines from the 1-based line offset, within
// maxBytes, and counts the lines of the whole file.
func readPage(ctx context.Context, br *bufio.Reader, offset, limit int) (page, error) {
	var p page
	size := 0
	collecting := true
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return p, ctx.Err()
		}
		keep := 0
		if collecting && n >= offset {
			keep = maxLineRunes * utf8.UTFMax
		}
		raw, cut, ok, err := readLine(br, keep)
		if err != nil {
			return p, err
		}
		if !ok {
			return p, nil
		}
		p.total = n
		if keep == 0 {
			continue
		}
		line, runeCut := cutLine(strings.ToValidUTF8(string(raw), "\uFFFD"))
		if cut || runeCut {
			line += lineCutMarker
		}
		if size+len(line)+numberWidth > maxBytes {
			collecting, p.capped = false, true
			continue
		}
		p.lines = append(p.lines, line)
		size += len(line) + numberWidth
		if len(p.lines) == limit {
			collecting = false
			p.capped = limit == maxLines
		}
	}
}

// readLine reads the next line without its newline, keeping at most keep bytes
// of it so that a huge line costs no memory. cut reports that bytes were
// dropped; ok is false at the end of the input.
func readLine(br *bufio.Reader, keep int) (line []byte, cut, ok bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			ok = true
		}
		chunk = bytes.TrimSuffix(chunk, []byte{'\n'})
		if room := keep - len(line); room < len(chunk) {
			chunk, cut = chunk[:max(room, 0)], true
		}
		line = append(line, chunk...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			return line, cut, ok, nil
		default:
			return line, cut, ok, err
		}
	}
}

// looksBinary reports whether the head of a file holds a NUL byte or so many
// invalid UTF-8 bytes that it is not text.
func looksBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	invalid := 0
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 {
			if !utf8.FullRune(head[i:]) {
				break // a rune split by the end of the sniffed head
			}
			invalid++
		}
		i += size
	}
	return invalid*100 > len(head)*binaryInvalidPercent
}
