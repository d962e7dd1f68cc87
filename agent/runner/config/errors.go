package config

import (
	"strconv"
	"strings"
)

// Error is a configuration problem: one line naming the file, the line when
// known, the JSON path and what is wrong. It never contains a key.
type Error struct {
	// File is the config file's path, or "environment".
	File string
	// Line is 1-based; 0 when the problem has no single place in the file.
	Line int
	// Path is the JSON path of the offending value, like
	// "providers.openai.profiles[1]"; empty when Msg names it itself.
	Path string
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// joinPath appends an object key to a JSON path; keys that would read
// ambiguously after a dot are quoted in brackets.
func joinPath(path, key string) string {
	plain := key != ""
	for _, r := range key {
		if !(r == '_' || r == '-' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			plain = false
			break
		}
	}
	if !plain {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// suggest returns the candidate closest to key when it is close enough to
// be a likely typo: the same letters in another case, or at most two edits
// away (one for short keys).
func suggest(key string, candidates []string) string {
	best, bestDist := "", 1<<30
	for _, c := range candidates {
		if strings.EqualFold(c, key) {
			return c
		}
		if d := editDistance(strings.ToLower(key), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := 2
	if len(key) <= 4 {
		limit = 1
	}
	if bestDist <= limit {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// listOf renders names for an error message, shortening long lists.
func listOf(names []string) string {
	const most = 12
	if len(names) == 0 {
		return "none"
	}
	if len(names) > most {
		return strings.Join(names[:most], ", ") + ", … (" + strconv.Itoa(len(names)-most) + " more)"
	}
	return strings.Join(names, ", ")
}
