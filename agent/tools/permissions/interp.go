package permissions

import (
	"regexp"
	"slices"
	"strings"
)

// interp describes how an interpreter is told its program: inline with an
// option, as a file operand, or (with neither) on its standard input.
type interp struct {
	shell   bool     // a POSIX-like shell: a literal script fed to it is walked
	program string   // short options that give the program inline (-c, -e) or name it (-m, -f)
	long    []string // long options that do the same (--eval)
	stdin   string   // short options that read the program from stdin even with operands (bash -s)
	values  string   // short options whose value is the next word
}

var (
	shellInterp  = interp{shell: true, program: "c", stdin: "s", values: "oO"}
	pythonInterp = interp{program: "cm", values: "WX"}
	// pythonName matches python, python3, python3.12 and the like.
	pythonName = regexp.MustCompile(`^(python|pypy)[0-9.]*$`)
)

// interpreters are the commands that run a program they may read from
// their standard input.
var interpreters = map[string]interp{
	"sh": shellInterp, "bash": shellInterp, "zsh": shellInterp, "dash": shellInterp,
	"ksh": shellInterp, "mksh": shellInterp, "ash": shellInterp,
	"fish": {program: "c"}, "csh": {program: "c"}, "tcsh": {program: "c"},
	"node":      {program: "ep", long: []string{"eval", "print"}, values: "r"},
	"nodejs":    {program: "ep", long: []string{"eval", "print"}, values: "r"},
	"perl":      {program: "eE"},
	"ruby":      {program: "e", values: "IrC"},
	"irb":       {},
	"php":       {program: "rf", values: "cd"},
	"lua":       {program: "e", values: "l"},
	"luajit":    {program: "e", values: "l"},
	"tclsh":     {},
	"Rscript":   {program: "e"},
	"R":         {},
	"osascript": {program: "e"},
	"pwsh":      {program: "cf", long: []string{"command", "file"}},
}

// interpreterOf returns the interpreter named name.
func interpreterOf(name string) (interp, bool) {
	if in, ok := interpreters[name]; ok {
		return in, true
	}
	if pythonName.MatchString(name) {
		return pythonInterp, true
	}
	return interp{}, false
}

// hasProgram reports whether args give the interpreter its program (inline
// or as a file), so that it does not run what its input holds.
func (in interp) hasProgram(args []word) bool {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case !args[i].lit:
			return true
		case t == "-":
			return false
		case t == "--":
			return i+1 < len(args)
		case strings.HasPrefix(t, "--"):
			name, _, _ := strings.Cut(t[2:], "=")
			if slices.Contains(in.long, name) {
				return true
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			for j := 1; j < len(t); j++ {
				c := t[j]
				switch {
				case strings.IndexByte(in.stdin, c) >= 0:
					return false
				case strings.IndexByte(in.program, c) >= 0:
					return true
				case strings.IndexByte(in.values, c) >= 0:
					if j == len(t)-1 {
						i++
					}
					j = len(t)
				}
			}
		default:
			return true
		}
	}
	return false
}
