package contextguard

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The truncation constants (SPEC §6.1). Sizes are bytes.
const (
	// MinKeepChars is the least a truncation keeps of a text, whatever its
	// budget (but never more than maxChars). (seed)
	MinKeepChars = 2_000
	// PersistMaxChars is the hard maximum of a tool result written to the
	// transcript (the persist guard); the request-time limit applies again
	// before every request. (seed)
	PersistMaxChars = 400_000
	// MaxTailChars caps the tail of a head+tail truncation. (seed)
	MaxTailChars = 4_000

	// tailSharePercent of the budget goes to the tail of a head+tail cut.
	tailSharePercent = 30
	// importantTailWindow is how much of the end the important-tail test reads.
	importantTailWindow = 2_000
	// snapPercent: a cut moves to a newline found within this share of the
	// kept part next to the cut (the last 20 % of the head, the first 20 % of
	// the tail), so the model sees whole lines.
	snapPercent = 20
)

// MiddleMarker is the line a head+tail truncation puts where it cut the middle.
const MiddleMarker = "\n\n[... middle content omitted — showing head and tail ...]\n\n"

// suffixFormat ends every truncated text; %d is how many bytes of the
// original text the truncation dropped. The newlines before it are left out
// when nothing at all is kept.
const (
	suffixSep    = "\n\n"
	suffixFormat = "[... %d more characters truncated]"
)

// truncatedSuffix finds the suffix at the very end of a text, which is what
// marks it as already truncated.
var truncatedSuffix = regexp.MustCompile(`(?:\n\n)?\[\.\.\. (\d+) more characters truncated\]\z`)

// importantTailWords are SPEC §6.1's signs that the end of an output matters:
// errors, summaries, results (and `total`, for du/rsync-style summaries).
// Each counts only as a whole word.
var importantTailWords = []string{
	"error", "exception", "failed", "fatal", "traceback", "panic", "stack trace", "errno", "exit code",
	"total", "summary", "result", "complete", "finished", "done",
}

// TruncateToolResult cuts text to at most maxChars bytes plus the suffix
// `[... N more characters truncated]`, N being the bytes dropped (SPEC §6.1).
//
// It keeps the head. When the last 2,000 bytes look important (an error, a
// summary, a result, the closing `}` of JSON: see hasImportantTail) and the
// budget exceeds 2 × MinKeepChars, it keeps head and tail instead: the tail
// gets 30 % of the budget (at most MaxTailChars), the head the rest, and
// MiddleMarker stands for the middle. The budget is
// max(MinKeepChars, maxChars − len(suffix)), never more than maxChars. Cuts
// move to a newline near them and never split a UTF-8 sequence.
//
// Text that fits is returned as it is. So is text that already ends with the
// suffix and whose body fits: truncation is idempotent, which keeps the
// prompt-cache prefix stable. An already truncated text whose body does not
// fit (a result cut to PersistMaxChars when it was stored, then sent to a
// model with a smaller limit) is cut again, its N counting both cuts.
func TruncateToolResult(text string, maxChars int) string {
	return truncateWith(text, maxChars, toolResultCut)
}

// cutPolicy tunes a truncation.
type cutPolicy struct {
	minKeep    int  // the least kept, whatever the budget
	alwaysTail bool // keep the tail even when it does not look important
}

// toolResultCut is SPEC §6.1's truncation.
var toolResultCut = cutPolicy{minKeep: MinKeepChars}

// truncateWith is TruncateToolResult under policy p.
func truncateWith(text string, maxChars int, p cutPolicy) string {
	maxChars = max(maxChars, 0)
	if len(text) <= maxChars {
		return text
	}
	body, dropped := splitTruncated(text)
	if dropped == 0 {
		return truncateText(text, noGap, maxChars, 0, p)
	}
	if len(body) <= maxChars {
		return text
	}
	// Cut the original bytes again, remembering where the earlier cut's
	// marker stood so that nothing kept pretends the two sides are adjacent.
	if gap := markerIndex(body); gap >= 0 {
		return truncateText(body[:gap]+body[gap+len(MiddleMarker):], gap, maxChars, dropped, p)
	}
	return truncateText(body, noGap, maxChars, dropped, p)
}

// IsTruncated reports whether text ends with the suffix of a truncation.
func IsTruncated(text string) bool {
	_, dropped := splitTruncated(text)
	return dropped > 0
}

// splitTruncated separates an already truncated text into its kept body and
// the count its suffix states; an untruncated text has dropped 0.
func splitTruncated(text string) (body string, dropped int) {
	if !strings.HasSuffix(text, "truncated]") {
		return text, 0
	}
	// The suffix is short: match only the end, not a text of megabytes.
	from := max(0, len(text)-maxSuffixLen)
	loc := truncatedSuffix.FindStringSubmatchIndex(text[from:])
	if loc == nil {
		return text, 0
	}
	n, err := strconv.Atoi(text[from+loc[2] : from+loc[3]])
	if err != nil || n <= 0 {
		return text, 0
	}
	return text[:from+loc[0]], n
}

// maxSuffixLen bounds the suffix with its separator (a count of 20 digits).
const maxSuffixLen = len(suffixSep) + len(suffixFormat) + 20

// markerIndex finds the MiddleMarker of a head+tail cut in its body. The
// tail after it is at most MaxTailChars, so only the end is searched: a
// stored result of PersistMaxChars is re-cut on every request.
func markerIndex(body string) int {
	from := max(0, len(body)-MaxTailChars-len(MiddleMarker))
	if i := strings.LastIndex(body[from:], MiddleMarker); i >= 0 {
		return from + i
	}
	return -1
}

// noGap says a text to cut is one piece of the original.
const noGap = -1

// truncateText cuts s to the budget for maxChars and appends the suffix.
// earlier counts the bytes an earlier truncation dropped; gap, unless noGap,
// is where in s they were, so the new head ends before it and the new tail
// starts after it.
func truncateText(s string, gap, maxChars, earlier int, p cutPolicy) string {
	headLimit, tailFloor := len(s), 0
	if gap != noGap {
		headLimit, tailFloor = gap, gap
	}
	budget := min(maxChars, max(p.minKeep, maxChars-suffixLen(len(s)+earlier)))
	if (p.alwaysTail || hasImportantTail(s)) && budget > 2*p.minKeep {
		tailBudget := min(budget*tailSharePercent/100, MaxTailChars)
		headBudget := budget - tailBudget - len(MiddleMarker)
		if headBudget > p.minKeep {
			headEnd := snapHead(s[:headLimit], headBudget)
			tailStart := max(tailFloor, snapTail(s, max(0, len(s)-tailBudget), tailBudget))
			return withSuffix(earlier+tailStart-headEnd, s[:headEnd], MiddleMarker, s[tailStart:])
		}
	}
	headEnd := snapHead(s[:headLimit], budget)
	return withSuffix(earlier+len(s)-headEnd, s[:headEnd])
}

// hasImportantTail reports whether the last 2,000 bytes, lower-cased, name an
// error, a summary or a result, or end a JSON object.
func hasImportantTail(text string) bool {
	tail := strings.ToLower(text[max(0, len(text)-importantTailWindow):])
	if strings.HasSuffix(strings.TrimSpace(tail), "}") {
		return true
	}
	for _, w := range importantTailWords {
		if containsWord(tail, w) {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in s between word boundaries (as
// regexp's \b sees them: ASCII letters, digits and _ are word bytes). It
// runs on every truncation, where a regexp would cost a hundred times more.
func containsWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(w)
		if (start == 0 || !isWordByte(s[start-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		from = start + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// snapHead returns where a head of at most limit bytes ends: at a newline in
// its last 20 % if there is one, else at the last rune boundary.
func snapHead(s string, limit int) int {
	if limit >= len(s) {
		return len(s)
	}
	if nl := strings.LastIndexByte(s[:limit], '\n'); nl >= 0 && nl*100 > limit*(100-snapPercent) {
		return nl
	}
	return runeStartAtOrBefore(s, limit)
}

// snapTail returns where a tail starting near start (budget bytes to the
// end) begins: after a newline in its first 20 % if there is one, else at
// the next rune boundary.
func snapTail(s string, start, budget int) int {
	start = runeStartAtOrAfter(s, start)
	if nl := strings.IndexByte(s[start:], '\n'); nl >= 0 && nl*100 < budget*snapPercent {
		return start + nl + 1
	}
	return start
}

// runeStartAtOrBefore moves i back to the start of the UTF-8 sequence it
// falls in. Bytes that are not valid UTF-8 are cut where they are.
func runeStartAtOrBefore(s string, i int) int {
	for j := i; j >= 0 && j > i-utf8.UTFMax; j-- {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}

// runeStartAtOrAfter moves i forward past the rest of the UTF-8 sequence it
// falls in.
func runeStartAtOrAfter(s string, i int) int {
	for j := i; j < len(s) && j < i+utf8.UTFMax; j++ {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}

// withSuffix joins the kept parts and the suffix for dropped bytes, copying
// each byte once.
func withSuffix(dropped int, kept ...string) string {
	n := strconv.Itoa(dropped)
	var b strings.Builder
	size := len(suffixFormat) - len("%d") + len(n)
	for _, k := range kept {
		size += len(k)
	}
	b.Grow(size + len(suffixSep))
	for _, k := range kept {
		b.WriteString(k)
	}
	if b.Len() > 0 {
		b.WriteString(suffixSep)
	}
	prefix, rest, _ := strings.Cut(suffixFormat, "%d")
	b.WriteString(prefix)
	b.WriteString(n)
	b.WriteString(rest)
	return b.String()
}

// suffixLen is the length of the suffix for at most n dropped bytes.
func suffixLen(n int) int {
	return len(suffixSep) + len(suffixFormat) - len("%d") + len(strconv.Itoa(n))
}
