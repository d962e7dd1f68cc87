// Package filter ranks a list against what the user types into a picker or
// the editor's command list: one rule for every list, so that typing the
// same letters narrows each the same way.
//
// # The rule
//
// Case does not matter. When some entries hold the query as typed (a
// substring), only those match: an entry the query starts comes first, then
// one where it starts a word (after / - _ . : or a space), then the rest,
// each group in the list's own order. Only when no entry holds it does a
// fuzzy match (the query's letters in order, github.com/sahilm/fuzzy)
// decide, best score first. Exact text wins because in a catalog of 300
// model ids made of digits and dashes nearly any short query is a
// subsequence of dozens of them ("o3" of 107, with "gpt-5.3-codex" scoring
// highest), so typing part of an id narrows to that id; the fuzzy fallback
// still finds "thk" in "thinking" or "gpt5m" in "gpt-5-mini".
package filter

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sahilm/fuzzy"
)

// Rank returns the indices of the targets that match query, best first (see
// the package doc). An empty or blank query matches every target, in order.
func Rank(query string, targets []string) []int {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		all := make([]int, len(targets))
		for i := range all {
			all[i] = i
		}
		return all
	}
	type hit struct{ index, rank int }
	var hits []hit
	for i, t := range targets {
		if r, ok := substringRank(strings.ToLower(t), q); ok {
			hits = append(hits, hit{i, r})
		}
	}
	if len(hits) > 0 {
		slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.rank, b.rank) })
		out := make([]int, len(hits))
		for i, h := range hits {
			out[i] = h.index
		}
		return out
	}
	// FindNoSort, then a stable sort of our own: the library's sort
	// compares scores with >=, which is no order, and shuffles ties.
	found := fuzzy.FindNoSort(q, targets)
	slices.SortStableFunc(found, func(a, b fuzzy.Match) int { return cmp.Compare(b.Score, a.Score) })
	out := make([]int, len(found))
	for i, f := range found {
		out[i] = f.Index
	}
	return out
}

// Where a substring match falls, best first.
const (
	atStart = iota
	atWord
	inside
)

// substringRank reports whether t holds q, and how well: the best of its
// occurrences.
func substringRank(t, q string) (int, bool) {
	best, found := inside, false
	for off := 0; ; {
		i := strings.Index(t[off:], q)
		if i < 0 {
			return best, found
		}
		i += off
		found = true
		switch {
		case i == 0:
			return atStart, true
		case strings.ContainsRune("/-_.: ", rune(t[i-1])):
			best = atWord
		}
		off = i + 1
	}
}
