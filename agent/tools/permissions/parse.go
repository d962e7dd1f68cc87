package permissions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// prefixMark ends a Bash spec that matches a command prefix: Bash(git log:*).
const prefixMark = ":*"

// domainMark starts a WebFetch spec: WebFetch(domain:example.com).
const domainMark = "domain:"

// Parse reads one rule in Claude Code's syntax: a tool name alone (the whole
// tool) or followed by a spec in parentheses. The error says what is wrong.
func Parse(text string, kind Kind) (Rule, error) {
	switch kind {
	case Allow, Ask, Deny:
	default:
		return Rule{}, fmt.Errorf("unknown rule list %q (want allow, ask or deny)", kind)
	}
	r := Rule{Text: text, Kind: kind}
	s := trimBlanks(text)
	if s == "" {
		return Rule{}, errors.New("empty rule")
	}
	name, spec, hasSpec, err := splitRule(s)
	if err != nil {
		return Rule{}, err
	}
	if strings.HasPrefix(name, mcpPrefix) {
		if hasSpec {
			return Rule{}, fmt.Errorf("rule %q: an MCP rule takes no parentheses (write mcp__server__tool)", text)
		}
		return parseMCP(r, name)
	}
	fam, ok := families[name]
	if !ok {
		return Rule{}, fmt.Errorf("rule %q: unknown tool %q", text, name)
	}
	r.family = name
	if !hasSpec {
		return r, nil
	}
	if spec == "" {
		return Rule{}, fmt.Errorf("rule %q: empty spec in parentheses (write %s alone for the whole tool)", text, name)
	}
	switch fam.spec {
	case specNone:
		return Rule{}, fmt.Errorf("rule %q: %s takes no spec", text, name)
	case specCommand:
		r.spec, r.prefix = parseCommandSpec(spec)
		r.exact = spec
		if r.spec == "" {
			return Rule{}, fmt.Errorf("rule %q: no command before %q", text, prefixMark)
		}
	case specPath:
		if err := checkPathSpec(spec); err != nil {
			return Rule{}, fmt.Errorf("rule %q: %w", text, err)
		}
		r.spec = spec
	case specDomain:
		host, err := parseDomainSpec(spec)
		if err != nil {
			return Rule{}, fmt.Errorf("rule %q: %w", text, err)
		}
		r.spec = host
	}
	return r, nil
}

// splitRule splits "Name(spec)" into its name and spec. The spec runs from
// the first "(" to the last ")", so a command spec may hold parentheses.
func splitRule(s string) (name, spec string, hasSpec bool, err error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if strings.ContainsRune(s, ')') {
			return "", "", false, fmt.Errorf("rule %q: \")\" without \"(\"", s)
		}
		name = s
	} else {
		if !strings.HasSuffix(s, ")") {
			return "", "", false, fmt.Errorf("rule %q: the spec must end with \")\"", s)
		}
		name, spec, hasSpec = s[:open], trimBlanks(s[open+1:len(s)-1]), true
	}
	if name == "" {
		return "", "", false, fmt.Errorf("rule %q: no tool name", s)
	}
	if strings.ContainsAny(name, " \t\n") {
		return "", "", false, fmt.Errorf("rule %q: the tool name %q holds a blank", s, name)
	}
	return name, spec, hasSpec, nil
}

// parseMCP reads mcp__server, mcp__server__* (every tool of a server) and
// mcp__server__tool.
func parseMCP(r Rule, name string) (Rule, error) {
	rest := strings.TrimPrefix(name, mcpPrefix)
	server, tool, hasTool := strings.Cut(rest, "__")
	if server == "" || !validMCPName(server) {
		return Rule{}, fmt.Errorf("rule %q: bad MCP server name %q", r.Text, server)
	}
	r.family = familyMCP
	switch {
	case !hasTool || tool == "*":
		r.spec, r.prefix = mcpPrefix+server+"__", true
	case tool == "" || !validMCPName(tool):
		return Rule{}, fmt.Errorf("rule %q: bad MCP tool name %q", r.Text, tool)
	default:
		r.spec = name
	}
	return r, nil
}

// validMCPName reports whether s is a server or tool name as steer forms
// MCP tool names: letters, digits, "_" and "-".
func validMCPName(s string) bool {
	for _, c := range s {
		ok := c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !ok {
			return false
		}
	}
	return true
}

// parseCommandSpec normalises a Bash spec: blanks collapse to one space, as
// a part's Text has them, and a trailing ":*" becomes the prefix flag.
func parseCommandSpec(spec string) (pattern string, prefix bool) {
	pattern = collapseBlanks(spec)
	if p, ok := strings.CutSuffix(pattern, prefixMark); ok {
		return trimBlanks(p), true
	}
	return pattern, false
}

// checkPathSpec rejects specs that cannot be a path pattern: another tool's
// spec, a ~user form, a bad glob.
func checkPathSpec(spec string) error {
	switch {
	case strings.HasSuffix(spec, prefixMark):
		return fmt.Errorf("%q is a command spec, not a path (\":*\" belongs to Bash rules)", spec)
	case strings.HasPrefix(spec, domainMark):
		return fmt.Errorf("%q is a WebFetch spec, not a path", spec)
	case strings.HasPrefix(spec, "~") && spec != "~" && !strings.HasPrefix(spec, "~/"):
		return fmt.Errorf("%q: only ~ and ~/ name the home directory", spec)
	case !doublestar.ValidatePattern(spec):
		return fmt.Errorf("%q is not a valid glob", spec)
	}
	return nil
}

// parseDomainSpec reads "domain:host" or "domain:*.host" into the lowercased
// host pattern.
func parseDomainSpec(spec string) (string, error) {
	host, ok := strings.CutPrefix(spec, domainMark)
	if !ok {
		return "", fmt.Errorf("%q: a WebFetch spec is domain:HOST", spec)
	}
	host = strings.ToLower(strings.TrimSpace(host))
	bare := strings.TrimPrefix(host, "*.")
	switch {
	case bare == "":
		return "", fmt.Errorf("%q: no host after %q", spec, domainMark)
	case strings.ContainsAny(bare, "/*:?#@ \t"):
		return "", fmt.Errorf("%q: a host name, or *.host for its subdomains", spec)
	}
	return host, nil
}
