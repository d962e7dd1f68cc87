package skills

import (
	"fmt"
	"path/filepath"

	"strconv"
	"strings"

	"github.com/steer-tui/steer/agent/lazyregexp"
)

// SkillPrefix starts the command that invokes a skill: /skill:<name>.
const SkillPrefix = "skill:"

// Expand is the message line sends when it invokes a skill
// ("/skill:NAME args") or a template ("/NAME args"); ok is false when it
// invokes neither, and the line is sent as typed. A /skill: naming no skill
// is an error naming those there are, and so is a skill whose SKILL.md
// cannot be read any more: neither is sent as it stands.
func (c Catalog) Expand(line string) (text string, ok bool, err error) {
	if !strings.HasPrefix(line, "/") {
		return line, false, nil
	}
	word, args := splitCommand(line[1:])
	if name, isSkill := strings.CutPrefix(word, SkillPrefix); isSkill {
		s, found := c.Skill(name)
		if !found {
			for _, sk := range c.Skipped {
				if sk.Kind == "skill" && filepath.Base(filepath.Dir(sk.Path)) == name {
					return line, false, fmt.Errorf("skill %q (%s) is not used: %s", name, sk.Path, sk.Reason)
				}
			}
			return line, false, fmt.Errorf("no skill %q: %s", name, c.skillNames())
		}
		block, err := SkillBlock(s)
		if err != nil {
			return line, false, err
		}
		if args != "" {
			block += "\n\n" + args
		}
		return block, true, nil
	}
	if t, found := c.Template(word); found {
		return Substitute(t.Body, SplitArgs(args)), true, nil
	}
	return line, false, nil
}

// skillNames says which skills there are, for an error.
func (c Catalog) skillNames() string {
	if len(c.Skills) == 0 {
		return "no skills are installed (/skills says where they are looked for)"
	}
	names := make([]string, len(c.Skills))
	for i, s := range c.Skills {
		names[i] = s.Name
	}
	return "the skills are " + strings.Join(names, ", ")
}

// splitCommand splits "name rest" at the first blank.
func splitCommand(s string) (word, args string) {
	i := strings.IndexAny(s, " \t\n")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// SkillBlock is the message that invokes s: its SKILL.md as it is now on
// disk, without the front matter, in pi's <skill> block.
func SkillBlock(s Skill) (string, error) {
	data, err := readBounded(s.Path)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	_, body, err := splitFrontMatter(data)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	return fmt.Sprintf("<skill name=%q location=%q>\nReferences are relative to %s.\n\n%s\n</skill>",
		s.Name, s.Path, s.Dir, strings.TrimSpace(body)), nil
}

// SplitArgs splits a template's arguments at blanks; a part in quotes
// ("a b" or 'a b') is one argument, without its quotes, as pi splits them.
// An unclosed quote runs to the end.
func SplitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args
}

// placeholder is what Substitute replaces: ${@:N}, ${@:N:L}, $ARGUMENTS,
// $@ and $N.
var placeholder = lazyregexp.Regexp{Expr: `\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)`}

// Substitute puts args into body in one pass (see the package doc); what
// it puts in is not looked at again. A placeholder past the arguments
// given becomes "".
func Substitute(body string, args []string) string {
	return placeholder.Get().ReplaceAllStringFunc(body, func(m string) string {
		sub := placeholder.Get().FindStringSubmatch(m)
		switch {
		case sub[1] != "":
			start := max(atoi(sub[1])-1, 0)
			if start >= len(args) {
				return ""
			}
			end := len(args)
			if sub[2] != "" {
				if n := atoi(sub[2]); n < end-start {
					end = start + n
				}
			}
			return strings.Join(args[start:end], " ")
		case sub[3] == "ARGUMENTS" || sub[3] == "@":
			return strings.Join(args, " ")
		}
		if i := atoi(sub[3]); i >= 1 && i <= len(args) {
			return args[i-1]
		}
		return ""
	})
}

// atoi reads digits the pattern matched; too many for an int is past any
// argument.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return int(^uint(0) >> 1)
	}
	return n
}
