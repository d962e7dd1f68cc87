package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ProjectContext returns the part of the system prompt that describes the
// workspace: its root. Append it to the base system prompt when a session
// starts (or its workspace changes). The project's instructions are the
// context files' (ContextFiles), read again for every request.
func ProjectContext(workspace string) string {
	return fmt.Sprintf("# Project context\n\nWorkspace root: %s (relative paths in tool calls are taken from it)\n",
		newWorkspace(workspace).root)
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
