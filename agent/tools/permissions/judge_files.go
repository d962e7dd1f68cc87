package permissions

import (
	"net/url"
	"strings"
)

// judgeFiles judges a file tool's call path by path: every path must be
// allowed for the call to be, any denied path denies it, and a write to a
// protected path asks (Forced) whatever the allow rules say.
func judgeFiles(rules []Rule, call Call, env Env) Decision {
	if len(call.Paths) == 0 {
		p := judgeOne(rules, call.Tool, func(r Rule) bool { return r.covers(call.Tool) && r.whole() })
		return combine([]Part{p}, "")
	}
	write := call.Write || writesFiles(call.Tool)
	patterns := make(map[int][]string)
	match := func(i int, r Rule, p string) bool {
		if !r.covers(call.Tool) {
			return false
		}
		if r.whole() {
			return true
		}
		pats, ok := patterns[i]
		if !ok {
			pats = pathPatterns(r.spec, r.Kind, env)
			patterns[i] = pats
		}
		return matchPath(pats, p)
	}
	parts := make([]Part, len(call.Paths))
	for n, p := range call.Paths {
		part := Part{Text: p, Verdict: Undecided}
		for _, k := range []Kind{Deny, Ask, Allow} {
			if part.Verdict != Undecided {
				break
			}
			for i, r := range rules {
				if r.Kind == k && match(i, r, p) {
					part.Verdict, part.Rule = verdictOf[k], r.Text
					break
				}
			}
		}
		if write && part.Verdict != Denied && protectedBy(p, env) != "" {
			if part.Verdict != Asks {
				part.Rule = ""
			}
			part.Verdict, part.Reason = Asks, "writes a protected path: "+p
		}
		parts[n] = part
	}
	return combine(parts, "")
}

// hostOf returns the lowercased host of a URL, "" when it has none.
func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// matchHost matches a WebFetch host pattern: the host itself, or with a
// leading "*." any subdomain of it.
func matchHost(pattern, host string) bool {
	if host == "" {
		return false
	}
	if suffix, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+suffix)
	}
	return host == pattern
}
