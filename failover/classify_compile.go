package failover

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

type compiledRule struct {
	re     *regexp.Regexp
	reason Reason
}

// compiled holds the classification tables ready to match.
type compiled struct {
	text                        []compiledRule
	retryWindow, generic, empty *regexp.Regexp
	leading                     *regexp.Regexp
	typ, code, message, loose   *regexp.Regexp
	// types is typeHints under typeKey.
	types map[string]Reason
	vague []string
}

// tables compiles every pattern once, on first use.
var tables = sync.OnceValue(func() *compiled {
	c := &compiled{
		retryWindow: regexp.MustCompile(retryWindow),
		generic:     regexp.MustCompile(genericOnly),
		empty:       regexp.MustCompile(noBody),
		leading:     regexp.MustCompile(leadingStatus),
		typ:         regexp.MustCompile(fieldType),
		code:        regexp.MustCompile(fieldCode),
		message:     regexp.MustCompile(fieldMessage),
		loose:       regexp.MustCompile(looseType),
		types:       map[string]Reason{},
	}
	for _, r := range textRules {
		c.text = append(c.text, compiledRule{regexp.MustCompile(r.pattern), r.reason})
	}
	for k, r := range typeHints {
		c.types[typeKey(k)] = r
	}
	for _, k := range vagueTypes {
		c.vague = append(c.vague, typeKey(k))
	}
	return c
})

// typeKey is a type name without case, underscores, dashes or spaces.
func typeKey(s string) string {
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(s))
}

// matchText is the first text rule that matches lower, or false.
func (c *compiled) matchText(lower string) (Reason, bool) {
	for _, r := range c.text {
		if r.re.MatchString(lower) {
			return r.reason, true
		}
	}
	return ReasonUnknown, false
}

// typeHint is the reason the first known type names, or false: first the
// caller's structured type and code, then the type fields of a JSON body,
// then type-like names loose in the text (an SDK's exception class, an AWS
// error code).
func (c *compiled) typeHint(lower string, extra ...string) (Reason, bool) {
	for _, t := range extra {
		if r, ok := c.types[typeKey(t)]; ok {
			return r, true
		}
	}
	for _, m := range c.typ.FindAllStringSubmatch(lower, -1) {
		if r, ok := c.types[typeKey(m[1])]; ok {
			return r, true
		}
	}
	for _, w := range c.loose.FindAllString(lower, -1) {
		k := typeKey(w)
		if r, ok := c.types[k]; ok && !slices.Contains(c.vague, k) {
			return r, true
		}
	}
	return ReasonUnknown, false
}
