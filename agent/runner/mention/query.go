package mention

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// Match is one entry a query found.
type Match struct {
	// Path is relative to the workspace, slash-separated; a directory's
	// ends in "/".
	Path string
	// Matched are the byte offsets in Path of the query's characters, for
	// highlighting; none for a listing.
	Matched []int
	// Resource is set for an MCP server's resource or template (Path is
	// then "server:uri"), which the finder offers beside the files.
	Resource *Resource
}

// Result is a query's answer.
type Result struct {
	Query   string
	Matches []Match // best first, at most the limit asked for
	// Searched is how many entries the walk had found; Complete says that
	// it had found them all. An incomplete result is worth asking again.
	Searched int
	Complete bool
}

// Query finds at most limit entries for what follows an "@":
//
//   - "" lists the workspace's top level, and "dir/" the entries of dir;
//   - "dir/rest", for a directory dir found, matches rest fuzzily against
//     the paths below dir;
//   - anything else matches fuzzily against every path.
//
// Fuzzy matches come best first (sahilm/fuzzy's score: the start of a name,
// after a separator, adjacent letters), shorter paths first among equals,
// then in walk order. Query starts the walk if it has not begun, and
// answers from what it has found so far.
func (ix *Index) Query(q string, limit int) Result {
	ix.Start()
	entries, done := ix.snapshot()
	res := Result{Query: q, Searched: len(entries), Complete: done}
	dir, rest := "", q
	if i := strings.LastIndexByte(q, '/'); i >= 0 {
		dir, rest = q[:i+1], q[i+1:]
	}
	var lo, hi int // the entries below dir
	switch {
	case dir == "":
		lo, hi = 0, len(entries)
	default:
		var ok bool
		if lo, hi, ok = below(entries, dir); !ok {
			// Not a directory (yet): match the whole query, slash and all.
			res.Matches = ix.fuzzy(entries, 0, len(entries), 0, q, limit)
			return res
		}
	}
	if rest == "" {
		res.Matches = children(entries[lo:hi], len(dir), limit)
		return res
	}
	res.Matches = ix.fuzzy(entries, lo, hi, len(dir), rest, limit)
	return res
}

// below finds the entries under directory dir: the walk lists a directory's
// whole subtree right after it, so they are the run that follows dir's own
// entry.
func below(entries []string, dir string) (lo, hi int, ok bool) {
	at := slices.Index(entries, dir)
	if at < 0 {
		return 0, 0, false
	}
	hi = at + 1
	for hi < len(entries) && strings.HasPrefix(entries[hi], dir) {
		hi++
	}
	return at + 1, hi, true
}

// children returns the entries of sub (a subtree, paths cut at prefix
// bytes) that are direct children, in walk order.
func children(sub []string, prefix, limit int) []Match {
	var out []Match
	for _, e := range sub {
		name := e[prefix:]
		if i := strings.IndexByte(name, '/'); i >= 0 && i < len(name)-1 {
			continue // deeper down
		}
		out = append(out, Match{Path: e})
		if len(out) == limit {
			break
		}
	}
	return out
}

// lastQuery remembers a fuzzy query's matches, so that a longer query
// (one more letter typed) searches only them and what was found after.
// Every entry that matches a pattern matches each of its prefixes.
type lastQuery struct {
	lo      int
	prefix  int
	pattern string
	seen    int     // entries[lo:seen] were searched
	hits    []int32 // the indices that matched
}

// fuzzy matches pattern against entries[lo:hi], each cut at prefix bytes.
func (ix *Index) fuzzy(entries []string, lo, hi, prefix int, pattern string, limit int) []Match {
	ix.lastMu.Lock()
	defer ix.lastMu.Unlock()
	l := &ix.last
	var cand []int32
	if l.pattern != "" && l.lo == lo && l.prefix == prefix && strings.HasPrefix(pattern, l.pattern) && l.seen <= hi {
		cand = append(slices.Clip(l.hits), span(l.seen, hi)...)
	} else {
		cand = span(lo, hi)
	}
	// sahilm/fuzzy scores each candidate rune by rune; a subsequence test
	// on bytes first leaves it only the entries that match at all, which
	// are what a longer query narrows.
	lower := strings.ToLower(pattern)
	kept := cand[:0:0]
	for _, i := range cand {
		if subsequence(lower, entries[i][prefix:]) {
			kept = append(kept, i)
		}
	}
	*l = lastQuery{lo: lo, prefix: prefix, pattern: pattern, seen: hi, hits: kept}

	scored := preselect(entries, kept, prefix, lower)
	strs := make([]string, len(scored))
	for i, e := range scored {
		strs[i] = entries[e][prefix:]
	}
	best := top(fuzzy.FindNoSort(pattern, strs), limit)
	out := make([]Match, 0, len(best))
	for _, f := range best {
		at := make([]int, len(f.MatchedIndexes))
		for i, x := range f.MatchedIndexes {
			at[i] = x + prefix
		}
		out = append(out, Match{Path: entries[scored[f.Index]], Matched: at})
	}
	return out
}

// maxScored bounds the matches sahilm/fuzzy scores for one query. It
// spends about a microsecond on each, and a letter or two typed after "@"
// matches nearly every one of 100,000 files.
const maxScored = 10_000

// preselect returns at most maxScored of the matching entries for scoring,
// the tightest matches first: where the pattern starts the entry's name,
// then where it lies whole in its name, then in its path, then scattered;
// the shorter first within a tier that does not fit whole (sahilm/fuzzy
// takes a point off for every letter not matched). sahilm/fuzzy ranks the
// tiers in that order nearly always, so its best few are among them.
func preselect(entries []string, kept []int32, prefix int, lower string) []int32 {
	if len(kept) <= maxScored {
		return kept
	}
	var tiers [4][]int32
	for _, i := range kept {
		path := strings.ToLower(entries[i][prefix:])
		name := path[strings.LastIndexByte(strings.TrimSuffix(path, "/"), '/')+1:]
		t := 3
		switch {
		case strings.HasPrefix(name, lower):
			t = 0
		case strings.Contains(name, lower):
			t = 1
		case strings.Contains(path, lower):
			t = 2
		}
		tiers[t] = append(tiers[t], i)
	}
	out := make([]int32, 0, maxScored)
	for _, t := range tiers {
		if len(out)+len(t) > maxScored {
			t = shortest(entries, t, maxScored-len(out))
		}
		out = append(out, t...)
		if len(out) == maxScored {
			break
		}
	}
	slices.Sort(out) // back in walk order, which breaks sahilm's ties
	return out
}

// shortest returns the n shortest of entries idx, by a counting sort on
// their lengths (capped: a path of 255 bytes or more is long enough).
func shortest(entries []string, idx []int32, n int) []int32 {
	const capLen = 255
	var count [capLen + 1]int
	for _, i := range idx {
		count[min(len(entries[i]), capLen)]++
	}
	limit, taken := 0, 0
	for limit <= capLen && taken+count[limit] < n {
		taken += count[limit]
		limit++
	}
	out := make([]int32, 0, n)
	for _, i := range idx { // those shorter than limit, and of limit as room allows
		switch l := min(len(entries[i]), capLen); {
		case l < limit:
			out = append(out, i)
		case l == limit && taken < n:
			out = append(out, i)
			taken++
		}
	}
	return out
}

// top returns the limit best of ms, best first, without sorting them all.
func top(ms []fuzzy.Match, limit int) []fuzzy.Match {
	var out []fuzzy.Match
	for _, m := range ms {
		at, _ := slices.BinarySearchFunc(out, m, func(a, b fuzzy.Match) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		if at < limit {
			out = slices.Insert(out, at, m)
			out = out[:min(len(out), limit)]
		}
	}
	return out
}

// better orders matches: the higher score, then the shorter path, then the
// one found first (the walk's order).
func better(a, b fuzzy.Match) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if len(a.Str) != len(b.Str) {
		return len(a.Str) < len(b.Str)
	}
	return a.Index < b.Index
}

// span is the indices lo..hi-1.
func span(lo, hi int) []int32 {
	out := make([]int32, 0, max(hi-lo, 0))
	for i := lo; i < hi; i++ {
		out = append(out, int32(i))
	}
	return out
}

// subsequence reports whether the letters of lower (a lower-cased pattern)
// appear in s in order, ignoring ASCII case: what sahilm/fuzzy requires of
// a match, without its scoring. A pattern beyond ASCII passes everything on.
func subsequence(lower, s string) bool {
	j := 0
	for i := 0; i < len(s) && j < len(lower); i++ {
		c := lower[j]
		if c >= utf8.RuneSelf {
			return true
		}
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b == c {
			j++
		}
	}
	return j == len(lower)
}
