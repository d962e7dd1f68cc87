package tui

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/steer-tui/steer/agent/runner"
)

// An MCP prompt's arguments follow its command, by name or by position:
//
//	/everything:complex_prompt temperature=0.7 style=short
//	/everything:complex_prompt 0.7 short
//	/srv:summarise the whole of this sentence
//
// A word "name=value" for one of the prompt's arguments gives it by name;
// any other word fills the next argument not given by name, in the order
// the prompt declares them, and the last such argument takes the rest of
// the line. Quotes ("a b" or 'a b') keep spaces in one value and make a
// word positional even if it holds "=". A name=value for no argument of the
// prompt, or words left over when every argument is given, is an error
// naming the arguments; so are required arguments left out.

// promptWord is one word of the arguments: its text, whether it was
// quoted, and where the rest of the line after it begins.
type promptWord struct {
	text   string
	quoted bool
	rest   string // the line from this word on, as typed
}

// namedArg is a word that gives an argument by name.
var namedArg = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.-]*)=(.*)$`)

// parsePromptArgs reads line against the prompt's arguments.
func parsePromptArgs(p runner.MCPPrompt, line string) (map[string]string, error) {
	words, err := splitWords(line)
	if err != nil {
		return nil, err
	}
	args := map[string]string{}
	var positional []promptWord
	for _, w := range words {
		if sub := namedArg.FindStringSubmatch(w.text); sub != nil && !w.quoted {
			if !takes(p, sub[1]) {
				return nil, fmt.Errorf("/%s has no argument %q: it takes %s", promptCommand(p), sub[1], promptUsage(p))
			}
			args[sub[1]] = sub[2]
			continue
		}
		positional = append(positional, w)
	}
	var open []string
	for _, a := range p.Arguments {
		if _, given := args[a.Name]; !given {
			open = append(open, a.Name)
		}
	}
	for i, w := range positional {
		if i >= len(open) {
			return nil, fmt.Errorf("/%s takes %s: %q is one too many", promptCommand(p), promptUsage(p), w.text)
		}
		if i == len(open)-1 && i < len(positional)-1 { // the last argument takes the rest
			args[open[i]] = strings.TrimSpace(w.rest)
			break
		}
		args[open[i]] = w.text
	}
	var missing []string
	for _, a := range p.Arguments {
		if _, given := args[a.Name]; a.Required && !given {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("/%s needs %s: /%s %s", promptCommand(p), strings.Join(missing, ", "), promptCommand(p), promptUsage(p))
	}
	return args, nil
}

// splitWords splits line at blanks, keeping quoted parts whole.
func splitWords(line string) ([]promptWord, error) {
	var out []promptWord
	i := 0
	for {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return out, nil
		}
		w := promptWord{rest: line[i:]}
		var b strings.Builder
		for i < len(line) && !isBlank(line[i]) {
			if q := line[i]; q == '"' || q == '\'' {
				end := strings.IndexByte(line[i+1:], q)
				if end < 0 {
					return nil, fmt.Errorf("a %c is not closed in %q", q, line)
				}
				b.WriteString(line[i+1 : i+1+end])
				w.quoted = true
				i += end + 2
				continue
			}
			b.WriteByte(line[i])
			i++
		}
		w.text = b.String()
		out = append(out, w)
	}
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }

// takes reports whether the prompt has an argument called name.
func takes(p runner.MCPPrompt, name string) bool {
	for _, a := range p.Arguments {
		if a.Name == name {
			return true
		}
	}
	return false
}

// promptCommand is the prompt's command name, without the slash.
func promptCommand(p runner.MCPPrompt) string { return p.Server + ":" + p.Name }

// promptUsage is the prompt's arguments as the command list shows them:
// "<required> [optional]", or "no arguments".
func promptUsage(p runner.MCPPrompt) string {
	if len(p.Arguments) == 0 {
		return "no arguments"
	}
	return promptArgsHint(p)
}

// promptArgsHint is the arguments' hint: "<temperature> [style]".
func promptArgsHint(p runner.MCPPrompt) string {
	parts := make([]string, len(p.Arguments))
	for i, a := range p.Arguments {
		if a.Required {
			parts[i] = "<" + a.Name + ">"
		} else {
			parts[i] = "[" + a.Name + "]"
		}
	}
	return strings.Join(parts, " ")
}
