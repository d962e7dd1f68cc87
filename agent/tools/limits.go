package tools

import (
	"io/fs"
	"unicode/utf8"
)

// The output caps shared by the tools: what one call may return to the model.
const (
	// maxLines is the most lines one result holds.
	maxLines = 2000
	// maxBytes is the most bytes of text one result holds.
	maxBytes = 50 * 1024
	// maxLineRunes is the longest line read shows before cutting it.
	maxLineRunes = 2000
)

// lineCutMarker ends a line that read cut at maxLineRunes.
const lineCutMarker = " … [line truncated]"

// cutLine shortens s to maxLineRunes runes and reports whether it did.
func cutLine(s string) (string, bool) {
	if len(s) <= maxLineRunes {
		return s, false // fewer bytes than the limit means fewer runes too
	}
	n := 0
	for i := range s {
		if n == maxLineRunes {
			return s[:i], true
		}
		n++
	}
	return s, false
}

// trimPartialRune drops leading UTF-8 continuation bytes, left behind when a
// byte cut landed inside a rune.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// typeName names the kind of a file that is neither regular nor a
// directory, for messages.
func typeName(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}
