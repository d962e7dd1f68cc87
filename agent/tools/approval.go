package tools

import (
	"fmt"
	"strings"
)

// Mode is the approval policy, the value of tools.approval and --approve.
type Mode string

// The approval modes.
const (
	// ModeAsk runs reads inside the workspace at once and asks the user
	// before anything that writes, runs a command or reaches outside the
	// workspace.
	ModeAsk Mode = "ask"
	// ModeAuto runs every call inside the workspace without asking. It
	// never asks, so a call reaching outside the workspace, which needs a
	// person's approval, is refused.
	ModeAuto Mode = "auto"
	// ModeNever refuses every call that writes, runs a command or reaches
	// outside the workspace; the model still sees every tool, and a refused
	// call gets an error result saying why.
	ModeNever Mode = "never"
	// ModePlan is for making a plan before changing anything: calls that
	// change nothing are judged as in ModeAsk, every other call is refused
	// with a result naming the plan file, whose write or edit is the one
	// change that runs, without asking (see plan.go).
	ModePlan Mode = "plan"
)

// Modes lists the approval modes, for messages and help.
var Modes = []Mode{ModeAsk, ModeAuto, ModeNever, ModePlan}

// renamedModes are the values tools.approval took before the modes above.
var renamedModes = map[string]Mode{"allow": ModeAuto, "deny": ModeNever}

// ParseApproval reads an approval mode; the error names the valid values
// (and the new name of a value from before they were renamed).
func ParseApproval(s string) (Mode, error) {
	for _, m := range Modes {
		if s == string(m) {
			return m, nil
		}
	}
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	want := strings.Join(names, ", ")
	if m, ok := renamedModes[s]; ok {
		return "", fmt.Errorf("unknown approval mode %q (want %s; %q is now %q)", s, want, s, m)
	}
	return "", fmt.Errorf("unknown approval mode %q (want %s)", s, want)
}

// Access describes what one tool call would touch, worked out before it
// runs so that a policy can decide on it and a person can judge it.
type Access struct {
	// Tool is the tool's name.
	Tool string
	// Paths are the files or directories the call reads or writes,
	// absolute and with symbolic links resolved; a command's is the
	// directory it runs in.
	Paths []string
	// Outside is set when a path lies outside the workspace.
	Outside bool
	// Mutating is set when the call changes files or runs a command.
	Mutating bool
	// Summary is one line for a person: "write src/main.go (12 lines)".
	Summary string
	// Diff is the unified diff a write or an edit would make, when it can be
	// worked out ("" otherwise).
	Diff string
}

// Describer is implemented by tools that can say what a call touches
// before it runs. Describe is called on the goroutine that then executes
// the call, with the same (validated) arguments; it may read the file
// system but changes nothing. A tool without it counts as mutating.
type Describer interface {
	Describe(args map[string]any) Access
}

// Verdict is what the policy says about one call.
type Verdict int

// The verdicts.
const (
	// Run the call without asking.
	Run Verdict = iota
	// Ask the user first.
	Ask
	// Refuse the call with an error result.
	Refuse
)

func (v Verdict) String() string {
	switch v {
	case Run:
		return "run"
	case Ask:
		return "ask"
	case Refuse:
		return "refuse"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Decide is the approval policy: what mode says about a call with access a.
// Reads inside the workspace always run. A call outside the workspace runs
// only with a person's approval, so only ModeAsk can let it through. An
// unknown mode is treated as ModeAsk, the safe default. ModePlan is not
// decided here but by planRule (plan.go), which judges reads as ModeAsk.
func Decide(mode Mode, a Access) Verdict {
	switch {
	case !a.Outside && (!a.Mutating || mode == ModeAuto):
		return Run
	case mode == ModeNever || mode == ModeAuto:
		return Refuse
	default:
		return Ask
	}
}

// refusalReason says why mode refused a call with access a.
func refusalReason(mode Mode, a Access) string {
	if mode == ModeAuto {
		return fmt.Sprintf("refused: this %s call reaches outside the workspace (%s), which needs the user's "+
			"approval, and tool approval %q never asks; with tools.approval or --approve set to %q the user is asked",
			a.Tool, strings.Join(a.Paths, ", "), ModeAuto, ModeAsk)
	}
	var why string
	switch {
	case a.Mutating && a.Outside:
		why = "it changes files or runs a command, and reaches outside the workspace"
	case a.Mutating:
		why = "it changes files or runs a command"
	default:
		why = "it reaches outside the workspace (" + strings.Join(a.Paths, ", ") + ")"
	}
	// auto refuses what reaches outside too (see Decide): only ask helps.
	allow := fmt.Sprintf("set to %q or %q", ModeAsk, ModeAuto)
	if a.Outside {
		allow = fmt.Sprintf("set to %q, which asks the user", ModeAsk)
	}
	return fmt.Sprintf("refused: tool approval is %q, which does not allow this %s call because %s; "+
		"the user can allow it with tools.approval or --approve %s", ModeNever, a.Tool, why, allow)
}

// unattendedReason says why a call that needs approval was not run where
// nobody can answer (steer run --approve ask): why it asks, and the rules
// that would let it run; a call no rule covers (undecided) inside the
// workspace also runs with --approve auto. It never reads "deny": nothing denied the call.
func unattendedReason(a Access, why string, grant []string, undecided bool) string {
	var b strings.Builder
	if a.Outside {
		fmt.Fprintf(&b, "needs approval: this %s call reaches outside the workspace (%s), which only a person can allow, "+
			"and nobody can answer in this mode", a.Tool, strings.Join(a.Paths, ", "))
	} else {
		fmt.Fprintf(&b, "needs approval: this %s call (%s) waits for a person, and nobody can answer in this mode", a.Tool, why)
	}
	b.WriteString(allowHint(grant, "; it runs with the rule "))
	switch {
	case a.Outside:
		fmt.Fprintf(&b, "; a person can approve it in the terminal UI or over steer rpc --approve %s", ModeAsk)
	case undecided:
		fmt.Fprintf(&b, "; --approve %s runs calls no rule covers inside the workspace", ModeAuto)
	}
	return b.String()
}
