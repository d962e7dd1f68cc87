package tools

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent/humanize"
)

// ContextFileMaxBytes bounds what of one context file reaches the system
// prompt: a huge AGENTS.md is cut, with a note the model sees, rather than
// filling the context window with it.
const ContextFileMaxBytes = 64 * 1024

// ContextFile is one context file as Load found it: loaded (Text), or
// passed over (Skipped says why).
type ContextFile struct {
	// Path is where it was found, as found (a link is not resolved).
	Path string
	// Shown is Path as a list shows it: relative to the workspace for the
	// workspace and its ancestors ("AGENTS.md", "../../CLAUDE.md"), from ~
	// for the global directory under home, so that a narrow column keeps
	// the file's name.
	Shown string
	Level ContextLevel
	// Size is its size on disk in bytes (0 when it could not be measured).
	Size int64
	// Text is what the system prompt carries of it, line ends normalised,
	// cut to ContextFileMaxBytes with a note when Truncated.
	Text      string
	Truncated bool
	// Skipped says why it is not used ("" when it is): not text, a link
	// leading elsewhere, a CLAUDE.md beside an AGENTS.md.
	Skipped string
}

// ContextFiles loads a workspace's context files, reading again only those
// that changed since its last Load: a change on disk (an edit, a new or a
// removed file) is seen by the next Load, at the cost of a few stats when
// nothing changed. It is safe for concurrent use.
type ContextFiles struct {
	workspace string
	src       ContextSources

	mu   sync.Mutex
	seen map[string]readContext // by path, as of the last Load
}

// readContext is a file as a Load read it, with what says it is unchanged.
type readContext struct {
	real string // where its links lead
	size int64
	mod  time.Time
	file ContextFile
}

// NewContextFiles loads the context files of workspace, with the global
// directory and the home directory of src.
func NewContextFiles(workspace string, src ContextSources) *ContextFiles {
	return &ContextFiles{workspace: workspace, src: src}
}

// Load finds the context files and reads them, outermost first (see the
// levels above). It does IO: call it off any UI goroutine.
func (c *ContextFiles) Load() []ContextFile {
	candidates := contextCandidates(contextDirs(c.workspace, c.src))
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := make(map[string]readContext, len(candidates))
	out := make([]ContextFile, 0, len(candidates))
	for _, cand := range candidates {
		if cand.why != "" {
			out = append(out, ContextFile{Path: cand.path, Shown: cand.shown(), Level: cand.dir.level, Skipped: cand.why})
			continue
		}
		r := c.read(cand)
		seen[cand.path] = r
		out = append(out, r.file)
	}
	c.seen = seen
	return out
}

// read reads cand, or keeps what the last Load read when its target, size
// and modification time are the same.
func (c *ContextFiles) read(cand contextCandidate) readContext {
	r := readContext{file: ContextFile{Path: cand.path, Shown: cand.shown(), Level: cand.dir.level}}
	real, err := resolveReal(cand.path)
	if err != nil {
		r.file.Skipped = "cannot be read: " + reason(err)
		return r
	}
	r.real = real
	if cand.dir.bound != "" && !within(cand.dir.bound, real) {
		where := "its directory"
		if cand.dir.repo {
			where = "the repository"
		}
		r.file.Skipped = fmt.Sprintf("a link leading outside %s (to %s)", where, real)
		return r
	}
	info, err := os.Stat(real)
	switch {
	case err != nil:
		r.file.Skipped = "cannot be read: " + reason(err)
		return r
	case info.IsDir():
		r.file.Skipped = "not a regular file (a directory)"
		return r
	case !info.Mode().IsRegular():
		r.file.Skipped = "not a regular file (" + typeName(info.Mode()) + ")"
		return r
	}
	r.size, r.mod, r.file.Size = info.Size(), info.ModTime(), info.Size()
	if prev, ok := c.seen[cand.path]; ok && prev.real == r.real && prev.size == r.size && prev.mod.Equal(r.mod) {
		return prev
	}
	r.file.Text, r.file.Truncated, r.file.Skipped = readContextText(real, info.Size())
	return r
}

// readContextText reads the file at path, of size bytes, within the cap:
// its text, whether it was cut, or why it is not used.
func readContextText(path string, size int64) (text string, truncated bool, skipped string) {
	f, err := os.Open(path)
	if err != nil {
		return "", false, "cannot be read: " + reason(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, ContextFileMaxBytes+1))
	if err != nil {
		return "", false, "cannot be read: " + reason(err)
	}
	if looksBinary(data[:min(len(data), sniffLen)]) {
		return "", false, "not text (binary)"
	}
	cut := toLFBytes(data, ContextFileMaxBytes)
	if !utf8.Valid(cut) {
		return "", false, "not valid UTF-8 text"
	}
	text = strings.TrimSpace(string(cut))
	if len(data) > ContextFileMaxBytes {
		size = max(size, int64(len(data)))
		text += fmt.Sprintf("\n\n[this file is %s; only its first %s are shown — read the file for the rest]",
			humanize.Bytes(size), humanize.Bytes(ContextFileMaxBytes))
		truncated = true
	}
	return text, truncated, ""
}

// reason is err without the path a *fs.PathError repeats.
func reason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ContextPrompt is the system prompt's section of the loaded files, in
// their order, each under a heading with its path; "" when none has text.
func ContextPrompt(files []ContextFile) string {
	var b strings.Builder
	for _, f := range files {
		if f.Skipped != "" || f.Text == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("# Context files\n\nInstructions for agents from the user's and the project's AGENTS.md " +
				"(or CLAUDE.md) files, the most general first: where two disagree, the later one, closer to the " +
				"workspace, wins. Follow them unless the user says otherwise.\n")
		}
		fmt.Fprintf(&b, "\n## %s (%s)\n\n%s\n", f.Path, f.Level, f.Text)
	}
	return b.String()
}
