package runner

import (
	"sync/atomic"

	"github.com/steer-tui/steer/agent/tools"
)

// The context files (AGENTS.md, CLAUDE.md: tools.ContextFiles) join the
// system prompt of every request, not only the first: each request reads
// them again — a stat each when nothing changed — so that an edit, a new
// file or a removed one shows in the next request of the same run. Every
// front end (the TUI, `steer run`, rpc) sends the same prompt, because the
// attempt loop under all of them adds the files (attempt.go). They are
// text, loaded whether or not the workspace is trusted.

// ContextFileMaxBytes is the most of one context file the system prompt
// carries; the rest is cut, with a note saying so.
const ContextFileMaxBytes = tools.ContextFileMaxBytes

// memory is a runtime's context files and what the session's SessionStart
// hooks said (sessionhooks.go); with no sources (Options.ContextFiles nil)
// it has no files, and only the hooks' part is joined.
type memory struct {
	files *tools.ContextFiles
	// section is the context files' part of the last request's prompt,
	// for the context meter, which does no IO.
	section atomic.Pointer[string]
	// started is the SessionStart hooks' context for the current session.
	started atomic.Pointer[string]
}

func newMemory(workspace string, src *tools.ContextSources) *memory {
	if src == nil {
		return &memory{}
	}
	return &memory{files: tools.NewContextFiles(workspace, *src)}
}

// prompt is base with the context files as they are on disk now. It does
// IO: the attempt loop's goroutine calls it before every request.
func (m *memory) prompt(base string) string {
	if m.files != nil {
		section := tools.ContextPrompt(m.files.Load())
		m.section.Store(&section)
	}
	return m.lastPrompt(base)
}

// lastPrompt is base with the context files as the last request had them,
// without IO.
func (m *memory) lastPrompt(base string) string {
	if s := m.section.Load(); s != nil {
		base = joinPrompt(base, *s)
	}
	if s := m.started.Load(); s != nil {
		base = joinPrompt(base, *s)
	}
	return base
}

// setSessionContext makes text (the SessionStart hooks' context, "" for
// none) part of every request's prompt from now on.
func (m *memory) setSessionContext(text string) {
	if text == "" {
		m.started.Store(nil)
		return
	}
	section := "<session-start-hook>\n" + text + "\n</session-start-hook>"
	m.started.Store(&section)
}

func joinPrompt(base, section string) string {
	if section == "" {
		return base
	}
	return base + "\n\n" + section
}

// ContextFileView is one context file as /memory, rpc `inspect
// {what:"memory"}` and `steer inspect memory` show it: where it was found
// (level "global", "ancestor" or "workspace"), its size on disk, how many
// bytes of it the system prompt carries, and why it is skipped when it is
// (then loaded is 0).
type ContextFileView struct {
	Path string `json:"path"`
	// Shown is Path as the TUI's narrow column shows it (tools.ContextFile).
	Shown     string `json:"-"`
	Level     string `json:"level"`
	Size      int64  `json:"size"`
	Loaded    int    `json:"loaded"`
	Truncated bool   `json:"truncated"`
	Skipped   string `json:"skipped,omitempty"`
}

// ContextFiles views the context files as the next request will carry
// them, outermost first; it reads the disk.
func (m *memory) ContextFiles() []ContextFileView {
	if m.files == nil {
		return nil
	}
	return viewContextFiles(m.files.Load())
}

// ReadContextFiles views the context files of workspace without a runtime
// (`steer inspect memory`).
func ReadContextFiles(workspace string, src tools.ContextSources) []ContextFileView {
	return viewContextFiles(tools.NewContextFiles(workspace, src).Load())
}

func viewContextFiles(files []tools.ContextFile) []ContextFileView {
	out := make([]ContextFileView, 0, len(files))
	for _, f := range files {
		out = append(out, ContextFileView{Path: f.Path, Shown: f.Shown, Level: string(f.Level), Size: f.Size, Loaded: len(f.Text),
			Truncated: f.Truncated, Skipped: f.Skipped})
	}
	return out
}

// ContextFiles views the current session's context files.
func (c *currentSession) ContextFiles() []ContextFileView { return c.current().ContextFiles() }
