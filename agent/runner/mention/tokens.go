package mention

import (
	"net/url"
	"path/filepath"
	"strings"
	"unicode"
)

// Mentions returns what follows each "@" in text that starts a word (at
// the start or after a space, so "a@b.c" is none): a path, or the quoted
// path of `@"my notes.md"`, in order. Whether each names a file only the
// file system can say (Expand asks it).
func Mentions(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || i > 0 && !isSpace(text[i-1]) {
			continue
		}
		rest := text[i+1:]
		if strings.HasPrefix(rest, `"`) {
			if end := strings.IndexByte(rest[1:], '"'); end > 0 {
				out = append(out, rest[1:1+end])
				i += end + 2
			}
			continue
		}
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		if end > 0 {
			out = append(out, rest[:end])
		}
		i += end
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// Token is how the editor writes a mention of path: "@path", quoted when
// the path holds a space.
func Token(path string) string {
	if strings.ContainsFunc(path, unicode.IsSpace) {
		return `@"` + path + `"`
	}
	return "@" + path
}

// imageExts are the file names the providers' image formats go by.
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp"}

// LooksLikeImage reports whether path's name is an image's. It reads
// nothing: the editor decides with it, and Expand checks the file's bytes.
func LooksLikeImage(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range imageExts {
		if ext == e {
			return true
		}
	}
	return false
}

// PastedImage returns the image path that pasted text is, as terminals
// paste a file dropped on them: maybe quoted ('…' or "…"), maybe with
// backslash-escaped spaces, maybe a file:// URL. ok is false for anything
// else: text of several lines, or a name that is no image's.
func PastedImage(pasted string) (path string, ok bool) {
	s := strings.TrimSpace(pasted)
	if s == "" || strings.ContainsAny(s, "\n\r") {
		return "", false
	}
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	} else {
		s = unescape(s)
	}
	if strings.HasPrefix(s, "file://") {
		u, err := url.Parse(s)
		if err != nil || u.Path == "" {
			return "", false
		}
		s = u.Path
	}
	if !LooksLikeImage(s) || strings.HasPrefix(s, "@") {
		return "", false
	}
	return s, true
}

// unescape undoes a shell's backslash escapes ("my\ shot.png").
func unescape(s string) string {
	if !strings.ContainsRune(s, '\\') {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
