package tools

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

const (
	// closestLines is how many similar lines a near-miss lists.
	closestLines = 3
	// minSimilarity is the bigram similarity (0–1) a line needs to be listed.
	minSimilarity = 0.5
	// maxShownLines is how many lines of the file a near-miss quotes.
	maxShownLines = 8
	// maxComparedRunes bounds the part of a line the similarity looks at.
	maxComparedRunes = 500
	// maxQuotedRunes bounds a line quoted in a message.
	maxQuotedRunes = 200
)

// nearMiss explains why old, which was not found, did not match text, by
// the closest thing the file holds: the same text with other whitespace, a
// block whose first lines match, or the lines most like its first line.
func nearMiss(text, old string) string {
	fileLines := strings.Split(text, "\n")
	oldLines := trimBlankEdges(strings.Split(old, "\n"))
	if len(oldLines) == 0 {
		return "It holds only blank lines, which are not found in that form."
	}
	norm := make([]string, len(fileLines))
	for i, l := range fileLines {
		norm[i] = squeeze(l)
	}
	if at, ok := matchIgnoringSpace(norm, oldLines); ok {
		end := at + len(oldLines)
		return fmt.Sprintf("It matches %s if whitespace is ignored; the file has exactly:\n%s",
			lineRange(at+1, end), quoteLines(fileLines, at, end))
	}
	if n, at := longestStart(norm, oldLines); n > 0 {
		start := fmt.Sprintf("Its first %d lines match", n)
		if n == 1 {
			start = "Its first line matches"
		}
		return fmt.Sprintf("%s %s, but then the file has line %d:\n%s\nwhere oldText has:\n    %s",
			start, lineRange(at+1, at+n), at+n+1,
			quoteLines(fileLines, at+n, at+n+1), strconv.Quote(cutRunes(oldLines[n], maxQuotedRunes)))
	}
	first := oldLines[0]
	closest := similarLines(norm, squeeze(first))
	if len(closest) == 0 {
		return fmt.Sprintf("No line of the file resembles its first line, %s; read the file again to see what it holds now.",
			strconv.Quote(cutRunes(first, maxQuotedRunes)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The lines of the file closest to its first line, %s, are:", strconv.Quote(cutRunes(first, maxQuotedRunes)))
	for _, c := range closest {
		fmt.Fprintf(&b, "\n    %d: %s (%d%% similar)", c.line+1, strconv.Quote(cutRunes(fileLines[c.line], maxQuotedRunes)),
			int(c.score*100))
	}
	return b.String()
}

// squeeze collapses every run of whitespace in s to one space and trims it.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// trimBlankEdges drops blank lines at both ends of lines.
func trimBlankEdges(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// matchIgnoringSpace finds the first line where oldLines occur in the file
// (norm, its squeezed lines) when whitespace is ignored: the first old line
// may end a file line and the last may start one, as text cut mid-line does.
func matchIgnoringSpace(norm, oldLines []string) (int, bool) {
	k := len(oldLines)
	want := make([]string, k)
	for i, l := range oldLines {
		want[i] = squeeze(l)
	}
	for at := 0; at+k <= len(norm); at++ {
		if k == 1 {
			if strings.Contains(norm[at], want[0]) {
				return at, true
			}
			continue
		}
		if !strings.HasSuffix(norm[at], want[0]) || !strings.HasPrefix(norm[at+k-1], want[k-1]) {
			continue
		}
		if slices.Equal(norm[at+1:at+k-1], want[1:k-1]) {
			return at, true
		}
	}
	return 0, false
}

// longestStart finds the file lines (norm, squeezed) that match the most
// leading lines of oldLines, whitespace ignored; n is 0 when even the first
// does not match a whole line.
func longestStart(norm, oldLines []string) (n, at int) {
	first := squeeze(oldLines[0])
	for i, l := range norm {
		if l != first {
			continue
		}
		m := 1
		for m < len(oldLines) && i+m < len(norm) && norm[i+m] == squeeze(oldLines[m]) {
			m++
		}
		if m > n && m < len(oldLines) && i+m < len(norm) {
			n, at = m, i
		}
	}
	return n, at
}

// similar is a file line and its similarity to the line looked for.
type similar struct {
	line  int
	score float64
}

// similarLines returns up to closestLines lines of norm at least
// minSimilarity like want, the most similar first.
func similarLines(norm []string, want string) []similar {
	wantGrams := bigrams(want)
	var found []similar
	for i, l := range norm {
		if s := dice(wantGrams, bigrams(l)); s >= minSimilarity {
			found = append(found, similar{line: i, score: s})
		}
	}
	slices.SortStableFunc(found, func(a, b similar) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return found[:min(len(found), closestLines)]
}

// bigrams counts the pairs of adjacent runes in the first maxComparedRunes
// runes of s.
func bigrams(s string) map[[2]rune]int {
	r := []rune(s)
	r = r[:min(len(r), maxComparedRunes)]
	m := make(map[[2]rune]int, len(r))
	for i := 1; i < len(r); i++ {
		m[[2]rune{r[i-1], r[i]}]++
	}
	return m
}

// dice is the Sørensen–Dice coefficient of two bigram multisets: 1 for the
// same text, 0 for nothing in common.
func dice(a, b map[[2]rune]int) float64 {
	total, common := 0, 0
	for g, n := range a {
		total += n
		common += min(n, b[g])
	}
	for _, n := range b {
		total += n
	}
	if total == 0 {
		return 0
	}
	return 2 * float64(common) / float64(total)
}

// lineRange names lines from to to (1-based, inclusive).
func lineRange(from, to int) string {
	if from == to {
		return fmt.Sprintf("line %d", from)
	}
	return fmt.Sprintf("lines %d-%d", from, to)
}

// quoteLines quotes lines[from:to] (at most maxShownLines of them) as Go
// strings, so that tabs and trailing spaces show, each after its number.
func quoteLines(lines []string, from, to int) string {
	var b strings.Builder
	for i := from; i < to && i < from+maxShownLines; i++ {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "    %d: %s", i+1, strconv.Quote(cutRunes(lines[i], maxQuotedRunes)))
	}
	if to-from > maxShownLines {
		fmt.Fprintf(&b, "\n    … %d more lines", to-from-maxShownLines)
	}
	return b.String()
}

// cutRunes shortens s to n runes, ending in "…" when cut; unlike clip it
// keeps whitespace as it is.
func cutRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
