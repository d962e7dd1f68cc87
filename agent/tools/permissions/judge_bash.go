package permissions

import (
	"path"
	"strings"
)

// judgeBash judges a bash command part by part. Rules are also tried
// against the whole command string: a deny or ask matching it applies as
// usual, and an allow written as exactly this command covers it whole,
// forced asks included (a prefix or glob allow never does: Bash(ls:*) must
// not cover "ls && rm -rf x").
func judgeBash(rules []Rule, call Call, env Env) judgement {
	whole := trimBlanks(call.Command)
	cmdParts, err := analyze(call.Command, env)
	if err != nil {
		cmdParts = []*cmdPart{{words: []string{whole}, construct: true, forced: []string{"the command does not parse: " + err.Error()}}}
	}
	j := judgement{cmdParts: cmdParts}
	parts := make([]Part, len(cmdParts))
	for i, cp := range cmdParts {
		parts[i] = judgePart(rules, cp)
	}
	j.askRule = hasAskRule(parts)
	bash := func(r Rule) bool { return r.covers(toolBash) }
	if r, ok := first(rules, Deny, func(r Rule) bool { return bash(r) && matchCommand(r, whole) }); ok {
		j.decision = Decision{Verdict: Denied, Rule: r.Text, Parts: parts, Reason: "denied by rule " + r.Text + ": " + oneLine(whole)}
		return j
	}
	ask, asks := first(rules, Ask, func(r Rule) bool { return bash(r) && matchCommand(r, whole) })
	allow, _ := first(rules, Allow, func(r Rule) bool { return bash(r) && r.exact != "" && r.exact == whole })
	if asks {
		allow, j.askRule = Rule{}, true
	}
	d := combine(parts, allow.Text)
	if len(parts) == 0 && d.Verdict == Undecided && whole != "" {
		// Only tests, arithmetic or comments: name the command itself.
		d.Reason = "no rule covers " + oneLine(whole)
	}
	if asks && d.Verdict != Denied && !d.Forced {
		d.Verdict, d.Rule = Asks, ask.Text
		d.Reason = "rule " + ask.Text + " asks for " + oneLine(whole)
	}
	j.decision = d
	return j
}

// first returns the first rule of kind that match accepts.
func first(rules []Rule, kind Kind, match func(Rule) bool) (Rule, bool) {
	for _, r := range rules {
		if r.Kind == kind && match(r) {
			return r, true
		}
	}
	return Rule{}, false
}

// judgePart judges one part of a bash command. Deny and ask rules also try
// the part with its command named by base name (/bin/rm is rm), so a path
// does not slip past them; allow rules match the text as it is.
func judgePart(rules []Rule, cp *cmdPart) Part {
	p := Part{Text: cp.text(), Wrapper: cp.wrapper, Verdict: Undecided}
	reason := strings.Join(cp.forced, "; ")
	if cp.construct {
		p.Verdict, p.Reason = Asks, reason
		return p
	}
	variants := []string{p.Text}
	if head := cp.words[0]; strings.Contains(head, "/") && !isAssignment(head) {
		variants = append(variants, strings.Join(append([]string{path.Base(head)}, cp.words[1:]...), " "))
	}
	anyVariant := func(r Rule) bool {
		if !r.covers(toolBash) {
			return false
		}
		for _, v := range variants {
			if matchCommand(r, v) {
				return true
			}
		}
		return false
	}
	if r, ok := first(rules, Deny, anyVariant); ok {
		p.Verdict, p.Rule = Denied, r.Text
		return p
	}
	if r, ok := first(rules, Ask, anyVariant); ok {
		p.Verdict, p.Rule, p.Reason = Asks, r.Text, reason
		return p
	}
	if reason != "" {
		p.Verdict, p.Reason = Asks, reason
		return p
	}
	if blankInName(cp.words) {
		return p
	}
	if r, ok := first(rules, Allow, func(r Rule) bool { return r.covers(toolBash) && matchCommand(r, p.Text) }); ok {
		p.Verdict, p.Rule = Allowed, r.Text
	}
	return p
}

// blankInName reports whether the command's name (its first word after
// assignments) holds a blank: 'go test' ./... runs a program named
// "go test", which no allow rule written as words (Bash(go test:*)) names,
// though the joined text reads the same.
func blankInName(words []string) bool {
	for _, w := range words {
		if !isAssignment(w) {
			return strings.ContainsAny(w, asciiBlanks)
		}
	}
	return false
}

// matchCommand matches a Bash rule against a command text: Bash(X:*) is X
// alone or X, a space and anything; Bash(X) is exactly X; a * anywhere
// else matches any run of bytes, and a spec whose one * ends it after a
// space (Bash(rm *)) also matches what comes before: as in Claude Code,
// where " *" is the ":*" of old, so that Bash(rm *) in deny refuses the
// bare rm that xargs runs. Blanks are compared collapsed, as the spec was
// parsed, so a word holding several spaces matches a spec written from
// its text.
func matchCommand(r Rule, text string) bool {
	if r.whole() {
		return true
	}
	text = collapseBlanks(text)
	if r.prefix {
		return glob(r.spec, text) || glob(r.spec+" *", text)
	}
	if head, ok := strings.CutSuffix(r.spec, " *"); ok && !strings.Contains(head, "*") && head == text {
		return true
	}
	return glob(r.spec, text)
}

// collapseBlanks turns every run of blanks into one space, as
// parseCommandSpec does with specs.
func collapseBlanks(s string) string {
	if !strings.ContainsAny(s, asciiBlanks[1:]) && !strings.Contains(s, "  ") && trimBlanks(s) == s {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, isASCIIBlank), " ")
}

// asciiBlanks are the bytes that separate shell words; anything else (a
// carriage return, a no-break space) is a byte of a word like any other.
const asciiBlanks = " \t\n"

func isASCIIBlank(r rune) bool { return r < 0x80 && strings.ContainsRune(asciiBlanks, r) }

// glob matches text against pattern, in which only * is special.
func glob(pattern, text string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == text
	}
	p, t := 0, 0
	star, mark := -1, 0
	for t < len(text) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, t
			p++
		case p < len(pattern) && pattern[p] == text[t]:
			p++
			t++
		case star >= 0:
			p, mark = star+1, mark+1
			t = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// trimBlanks trims ASCII blanks from both ends of s.
func trimBlanks(s string) string { return strings.Trim(s, asciiBlanks) }
