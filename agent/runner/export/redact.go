package export

import (
	"sort"
	"strings"
	"sync/atomic"

	"github.com/steer-tui/steer/agent/lazyregexp"
)

// Redacted replaces every secret a Redactor finds.
const Redacted = "[redacted]"

// minKnownLen is the shortest known value a Redactor replaces: shorter ones
// ("dev", a PIN) would shred ordinary text.
const minKnownLen = 8

// shape is a recognisable token pattern. When keep is set, the first
// submatch (a label such as "Bearer ") stays and only the rest is replaced.
type shape struct {
	re   *lazyregexp.Regexp
	keep bool
}

// shapes are the token forms redacted even when nobody declared them.
var shapes = []shape{
	{re: &lazyregexp.Regexp{Expr: `\bsk-[A-Za-z0-9_-]{20,}`}},                    // OpenAI, Anthropic sk-ant-…
	{re: &lazyregexp.Regexp{Expr: `\b(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{20,}`}}, // GitHub tokens
	{re: &lazyregexp.Regexp{Expr: `\bgithub_pat_[A-Za-z0-9_]{20,}`}},             // GitHub fine-grained
	{re: &lazyregexp.Regexp{Expr: `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`}},              // AWS access key ids
	{re: &lazyregexp.Regexp{Expr: `\bxox[baprs]-[A-Za-z0-9-]{10,}`}},             // Slack
	{re: &lazyregexp.Regexp{Expr: `(?i)(aws_secret_access_key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{16,}`}, keep: true},
	// A bearer token needs 16 characters so that prose ("Bearer authentication") survives.
	{re: &lazyregexp.Regexp{Expr: `(?i)(\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}`}, keep: true},
}

// Redactor replaces secrets in the strings an export writes and counts the
// replacements. It is safe for concurrent use; a nil *Redactor redacts
// nothing.
type Redactor struct {
	known []string // longest first, so a value containing another goes whole
	count atomic.Int64
}

// NewRedactor returns a Redactor for the given secret values (provider keys,
// tokens from the environment) on top of the built-in token shapes. Values
// shorter than 8 bytes are ignored.
func NewRedactor(known ...string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, k := range known {
		k = strings.TrimSpace(k)
		if len(k) >= minKnownLen && !seen[k] {
			seen[k] = true
			r.known = append(r.known, k)
		}
	}
	sort.Slice(r.known, func(i, j int) bool { return len(r.known[i]) > len(r.known[j]) })
	return r
}

// Count is how many secrets the Redactor has replaced so far.
func (r *Redactor) Count() int {
	if r == nil {
		return 0
	}
	return int(r.count.Load())
}

// String returns s with every secret replaced by [redacted].
func (r *Redactor) String(s string) string {
	if r == nil || s == "" {
		return s
	}
	for _, k := range r.known {
		if n := strings.Count(s, k); n > 0 {
			r.count.Add(int64(n))
			s = strings.ReplaceAll(s, k, Redacted)
		}
	}
	for _, sh := range shapes {
		s = r.replace(s, sh)
	}
	return s
}

// replace applies one shape to s.
func (r *Redactor) replace(s string, sh shape) string {
	matches := sh.re.Get().FindAllStringSubmatchIndex(s, -1)
	if len(matches) == 0 {
		return s
	}
	r.count.Add(int64(len(matches)))
	var b strings.Builder
	last := 0
	for _, m := range matches {
		start := m[0]
		if sh.keep {
			start = m[3]
		}
		b.WriteString(s[last:start])
		b.WriteString(Redacted)
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
