package tools

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent/humanize"
)

const (
	// ProjectContextFile is the file of project instructions for agents that
	// ProjectContext reads from the workspace root.
	ProjectContextFile = "AGENTS.md"
	// maxProjectContextBytes bounds what of it reaches the system prompt.
	maxProjectContextBytes = 32 * 1024
)

// ProjectContext returns the part of the system prompt that describes the
// workspace: its root, and the project's instructions from AGENTS.md in the
// root when there is one, cut to 32 KB. Append it to the base system prompt
// when a session starts (or its workspace changes).
//
// An AGENTS.md that cannot be used — a link leading outside the workspace
// (a checked-out repository could point it at a private file), not a
// regular file, binary, unreadable — is left out and reported by the error;
// the text returned is still valid.
func ProjectContext(workspace string) (string, error) {
	w := newWorkspace(workspace)
	var b strings.Builder
	fmt.Fprintf(&b, "# Project context\n\nWorkspace root: %s (relative paths in tool calls are taken from it)\n", w.root)
	instructions, err := readProjectFile(w)
	if instructions != "" {
		fmt.Fprintf(&b, "\n## Project instructions (%s)\n\n"+
			"The project keeps these instructions for agents; follow them unless the user says otherwise.\n\n%s\n",
			ProjectContextFile, instructions)
	}
	return b.String(), err
}

// readProjectFile reads the workspace's AGENTS.md within the bound: "" and
// no error when there is none.
func readProjectFile(w workspace) (string, error) {
	t, err := w.locate(ProjectContextFile)
	if err != nil {
		return "", fmt.Errorf("%s: %w", ProjectContextFile, err)
	}
	if !t.inside {
		return "", fmt.Errorf("%s leads outside the workspace (to %s); it is not read", ProjectContextFile, t.path)
	}
	info, err := os.Stat(t.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("%s: %w", ProjectContextFile, err)
	case !info.Mode().IsRegular():
		return "", fmt.Errorf("%s is %s; it is not read", ProjectContextFile, typeName(info.Mode()))
	}
	f, err := os.Open(t.path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", ProjectContextFile, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxProjectContextBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", ProjectContextFile, err)
	}
	if looksBinary(data[:min(len(data), sniffLen)]) {
		return "", fmt.Errorf("%s is not text; it is not read", ProjectContextFile)
	}
	text := strings.TrimSpace(strings.ToValidUTF8(string(toLFBytes(data, maxProjectContextBytes)), "\uFFFD"))
	if int64(len(data)) > maxProjectContextBytes {
		text += fmt.Sprintf("\n\n[%s is %s; only its first %s are shown — read the file for the rest]",
			ProjectContextFile, humanize.Bytes(info.Size()), humanize.Bytes(maxProjectContextBytes))
	}
	return text, nil
}

// toLFBytes cuts data to at most limit bytes, at a line end when there is
// one in the last quarter, else at a rune start, and normalises line endings.
func toLFBytes(data []byte, limit int) []byte {
	if len(data) > limit {
		data = data[:limit]
		if i := strings.LastIndexByte(string(data[limit*3/4:]), '\n'); i >= 0 {
			data = data[:limit*3/4+i+1]
		} else {
			for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
				if utf8.RuneStart(data[i]) {
					if !utf8.FullRune(data[i:]) {
						data = data[:i]
					}
					break
				}
			}
		}
	}
	return []byte(toLF(string(data)))
}
