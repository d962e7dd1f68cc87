package permissions

import (
	"slices"
	"strings"
)

// wrapper describes a command that runs the command after its options:
// which options take a value (skipped with it) and which mean that no
// command follows.
type wrapper struct {
	values       string   // short options whose value is the rest of the word or the next word
	optional     string   // short options whose value, if any, is attached (xargs -i[R])
	long         []string // long options whose value is the next word unless written --opt=value
	optionalLong []string // long options whose value, if any, is attached (xargs --replace[=R])
	none         string   // short options after which no command follows (sudo -l, command -v)
	operands     int      // operands before the command (timeout's duration)
	assigns      bool     // NAME=VALUE words before the command are skipped (env, sudo)
	numbers      bool     // -N is an option (nice -10)
	noStdin      bool     // the inner command does not read the wrapper's input (xargs)
	splitLong    string   // the long form of env -S, whose value is a command line
	// notes are the options (a short letter or a long name) whose value
	// says more than where the command starts: the directory it runs in
	// (env -C, sudo -D) or the string its input replaces (xargs -I).
	notes map[string]note
}

// note is what an option's value tells about the command a wrapper runs.
type note int

const (
	noteChdir   note = iota + 1 // the command runs in the directory given
	noteReplace                 // the string given is replaced by input in the command
)

// defaultReplace is what xargs -i and --replace replace without a value,
// and what find's actions replace.
const defaultReplace = "{}"

// noted are the values of a wrapper's noted options, as skip found them.
type noted struct {
	chdir   *word  // where the command runs, nil when where the wrapper does
	replace string // the string input replaces in the command, "" for none
}

// wrappers are the commands judged both as themselves and as the command
// they run.
var wrappers = map[string]wrapper{
	"sudo": {values: "CDghpRrTtUu", none: "eKlVv", assigns: true,
		long:  []string{"chdir", "chroot", "close-from", "command-timeout", "group", "host", "other-user", "prompt", "role", "type", "user"},
		notes: map[string]note{"D": noteChdir, "chdir": noteChdir}},
	"doas": {values: "Cu", none: "L"},
	"env": {values: "CSu", long: []string{"chdir", "split-string", "unset"}, assigns: true, splitLong: "split-string",
		notes: map[string]note{"C": noteChdir, "chdir": noteChdir}},
	"timeout": {values: "ks", long: []string{"kill-after", "signal"}, operands: 1},
	"nice":    {values: "n", long: []string{"adjustment"}, numbers: true},
	"nohup":   {},
	"time":    {values: "fo", long: []string{"format", "output"}},
	"xargs": {values: "adEILnPs", optional: "eil", noStdin: true,
		long:         []string{"arg-file", "delimiter", "max-args", "max-chars", "max-procs", "process-slot-var"},
		optionalLong: []string{"eof", "max-lines", "replace"},
		notes:        map[string]note{"I": noteReplace, "i": noteReplace, "replace": noteReplace}},
	"command":  {none: "vV"},
	"builtin":  {},
	"exec":     {values: "a"},
	"stdbuf":   {values: "eio", long: []string{"error", "input", "output"}},
	"ionice":   {values: "cn", none: "pPu", long: []string{"class", "classdata"}},
	"busybox":  {},
	"setsid":   {},
	"unbuffer": {},
	"chroot":   {operands: 1},
	"taskset":  {none: "p", operands: 1},
	"strace":   {values: "abeEIoOpPsSuX"},
}

// shells run their -c argument as a script.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// findActions are find's options that run a command, up to ";" or "{} +".
var findActions = []string{"-exec", "-execdir", "-ok", "-okdir"}

// unwrapped is what a wrapper runs.
type unwrapped struct {
	inners      [][]word // the commands it runs (find may run several)
	script      *word    // the script a shell's -c (or env -S) runs
	clearsStdin bool     // the inner commands do not read the wrapper's input
	// elsewhere: the inner commands run in another directory than the
	// wrapper, chdir (nil when the text does not say which).
	elsewhere bool
	chdir     *word
	// replace is the string the wrapper replaces in its inner commands'
	// arguments at run time (xargs -I S, find's {}), "" for none;
	// replaceHead: in the command's name too (find -exec {} runs the files
	// it finds).
	replace     string
	replaceHead bool
}

// unwrap returns what the command args (named name) runs, if it is a wrapper.
func unwrap(name string, args []word) unwrapped {
	switch {
	case name == "find":
		inDir := slices.ContainsFunc(args[1:], func(a word) bool { return a.text == "-execdir" || a.text == "-okdir" })
		return unwrapped{inners: findCommands(args[1:]), replace: defaultReplace, replaceHead: true, elsewhere: inDir}
	case shells[name]:
		return unwrapped{script: shellScript(args[1:])}
	case name == "su":
		return unwrapped{script: optionValue(args[1:], "-c", "--command")}
	case name == "trap":
		return unwrapped{script: trapCommand(args[1:])}
	case name == "watch":
		return unwrapped{script: watchCommand(args[1:])}
	}
	spec, ok := wrappers[name]
	if !ok {
		return unwrapped{}
	}
	var got noted
	rest, split, ok := spec.skip(args[1:], &got)
	u := unwrapped{elsewhere: got.chdir != nil, chdir: got.chdir, replace: got.replace}
	switch {
	case !ok:
		return unwrapped{}
	case split != nil:
		script := *split
		for _, r := range rest {
			script.text += " " + r.text
			script.lit = script.lit && r.lit
		}
		u.script = &script
		return u
	case len(rest) == 0:
		return unwrapped{}
	}
	u.inners, u.clearsStdin = [][]word{rest}, spec.noStdin
	return u
}

// note records the value of the option key (a short letter or a long
// name) in got when the wrapper notes it.
func (spec wrapper) note(key string, value word, got *noted) {
	switch spec.notes[key] {
	case noteChdir:
		got.chdir = &value
	case noteReplace:
		got.replace = value.text
		if got.replace == "" {
			got.replace = defaultReplace
		}
	}
}

// skip drops the wrapper's options and operands and returns the command
// after them, or env's -S command line, noting in got what the options
// say of it. ok is false when an option says no command follows.
func (spec wrapper) skip(args []word, got *noted) (rest []word, split *word, ok bool) {
	i := 0
	for i < len(args) && args[i].lit {
		t := args[i].text
		switch {
		case t == "--":
			i++
			return spec.operandsOf(args[i:]), nil, true
		case spec.assigns && isAssignment(t):
			i++
			continue
		case strings.HasPrefix(t, "--") && len(t) > 2:
			name, value, hasValue := strings.Cut(t[2:], "=")
			at := i
			if slices.Contains(spec.long, name) && !hasValue && i+1 < len(args) {
				at = i + 1
				value, hasValue = args[at].text, true
			}
			if spec.splitLong != "" && name == spec.splitLong && hasValue {
				return args[at+1:], &word{text: value, lit: args[at].lit, pos: args[at].pos}, true
			}
			if hasValue || slices.Contains(spec.optionalLong, name) {
				spec.note(name, word{text: value, lit: args[at].lit, pos: args[at].pos}, got)
			}
			i = at + 1
			continue
		case len(t) > 1 && t[0] == '-':
			next, s, ok := spec.short(args, i, got)
			switch {
			case !ok:
				return nil, nil, false
			case s != nil:
				return args[next:], s, true
			}
			i = next
			continue
		}
		break
	}
	return spec.operandsOf(args[i:]), nil, true
}

// short skips the option cluster at args[i] and returns the index after it
// (and its value), env's -S command line, or ok false for an option after
// which no command follows; got notes what the options say.
func (spec wrapper) short(args []word, i int, got *noted) (next int, split *word, ok bool) {
	t := args[i].text
	for j := 1; j < len(t); j++ {
		c := t[j]
		switch {
		case strings.IndexByte(spec.none, c) >= 0:
			return 0, nil, false
		case spec.numbers && c >= '0' && c <= '9':
			return i + 1, nil, true
		case strings.IndexByte(spec.optional, c) >= 0:
			spec.note(string(c), word{text: t[j+1:], lit: args[i].lit, pos: args[i].pos}, got)
			return i + 1, nil, true
		case strings.IndexByte(spec.values, c) >= 0:
			value, at := t[j+1:], i
			if value == "" && i+1 < len(args) {
				at = i + 1
				value = args[at].text
			}
			if c == 'S' && spec.splitLong != "" {
				return at + 1, &word{text: value, lit: args[at].lit, pos: args[at].pos}, true
			}
			spec.note(string(c), word{text: value, lit: args[at].lit, pos: args[at].pos}, got)
			return at + 1, nil, true
		}
	}
	return i + 1, nil, true
}

// operandsOf drops the operands a wrapper takes before its command.
func (spec wrapper) operandsOf(args []word) []word {
	if len(args) < spec.operands {
		return nil
	}
	return args[spec.operands:]
}

// findCommands returns the commands find's -exec, -execdir, -ok and -okdir
// run: the words after the action up to ";" or "{} +".
func findCommands(args []word) [][]word {
	var out [][]word
	for i := 0; i < len(args); i++ {
		if !slices.Contains(findActions, args[i].text) {
			continue
		}
		start := i + 1
		end := start
		for end < len(args) && args[end].text != ";" && !(args[end].text == "+" && end > start && args[end-1].text == "{}") {
			end++
		}
		if end > start {
			out = append(out, args[start:end])
		}
		i = end
	}
	return out
}

// shellScript returns the script of sh -c SCRIPT (the first operand after
// the options when one of them is -c), or nil when the shell reads a file
// or its input instead.
func shellScript(args []word) *word {
	withC := false
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case !args[i].lit:
			return scriptIf(withC, args, i)
		case t == "--":
			return scriptIf(withC, args, i+1)
		case t == "-o" || t == "+o" || t == "-O" || t == "+O" || t == "--rcfile" || t == "--init-file":
			i++
		case strings.HasPrefix(t, "--"):
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			withC = withC || t[0] == '-' && strings.ContainsRune(t, 'c')
		default:
			return scriptIf(withC, args, i)
		}
	}
	return nil
}

func scriptIf(withC bool, args []word, i int) *word {
	if !withC || i >= len(args) {
		return nil
	}
	return &args[i]
}

// optionValue returns the value of the option short or long (-c CMD,
// --command=CMD, --command CMD), nil when it is absent.
func optionValue(args []word, short, long string) *word {
	for i, a := range args {
		switch {
		case (a.text == short || a.text == long) && i+1 < len(args):
			return &args[i+1]
		case strings.HasPrefix(a.text, long+"="):
			v := a
			v.text = strings.TrimPrefix(a.text, long+"=")
			return &v
		}
	}
	return nil
}

// trapCommand returns the command trap sets for later, nil for trap -l,
// trap -p, trap - SIG and trap ” SIG, which set none.
func trapCommand(args []word) *word {
	if len(args) > 0 && args[0].text == "--" {
		args = args[1:]
	}
	if len(args) < 2 || args[0].lit && (args[0].text == "" || args[0].text == "-" || strings.HasPrefix(args[0].text, "-")) {
		return nil
	}
	return &args[0]
}

// watchCommand returns what watch runs: its operands joined, given to
// sh -c (nil when there are none).
func watchCommand(args []word) *word {
	i := 0
	for i < len(args) && args[i].lit && strings.HasPrefix(args[i].text, "-") {
		if t := args[i].text; t == "-n" || t == "--interval" || t == "-q" || t == "--equexit" {
			i++
		}
		i++
	}
	if i >= len(args) {
		return nil
	}
	script := word{text: strings.Join(texts(args[i:]), " "), lit: allLit(args[i:]), pos: args[i].pos}
	return &script
}

// isAssignment reports whether s is NAME=VALUE.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
