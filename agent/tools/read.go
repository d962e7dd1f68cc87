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
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
)

const (
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

type readTool struct{ workspace string }

// Read returns the read tool, which shows a text file of the workspace in
// pages of at most maxLines lines and maxBytes bytes.
func Read(workspace string) agent.Tool { return readTool{workspace: workspace} }

var readSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "File to read, relative to the workspace or absolute."},
		"offset": {"type": "integer", "minimum": 1, "description": "1-based line to start from (default 1)."},
		"limit": {"type": "integer", "minimum": 1, "description": "Most lines to return (default and maximum 2000)."}
	},
	"required": ["path"],
	"additionalProperties": false
}`)

func (readTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "read",
		Description: fmt.Sprintf("Read a text file. Returns at most %d lines or %d KB per call; "+
			"when the file is longer the result says which offset to continue from. "+
			"Lines longer than %d characters are cut. Binary files are refused.",
			maxLines, maxBytes/1024, maxLineRunes),
		Parameters: readSchema,
	}
}

func (t readTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	path := resolvePath(t.workspace, stringArg(args, "path"))
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
		return agent.ErrorResult(fmt.Sprintf("%s is not a regular file (%s)", path, info.Mode().Type())), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("cannot read %s: %v", path, err)), nil
	}
	defer f.Close()

	br := bufio.NewReaderSize(f, 64*1024)
	if head, _ := br.Peek(sniffLen); looksBinary(head) {
		return agent.ErrorResult(fmt.Sprintf("%s is a binary file (%s); read only shows text",
			path, formatSize(info.Size()))), nil
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
	text := strings.Join(p.lines, "\n")
	if details.EndLine < p.total {
		text += fmt.Sprintf("\n\n[showing lines %d-%d of %d; use offset=%d to continue]",
			details.StartLine, details.EndLine, p.total, details.EndLine+1)
	}
	return agent.ToolResult{Content: []agent.Content{agent.Text(text)}, Details: details}, nil
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
		if size+len(line)+1 > maxBytes {
			collecting, p.capped = false, true
			continue
		}
		p.lines = append(p.lines, line)
		size += len(line) + 1
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
