package tools

import (
	"fmt"
	"path/filepath"

	"github.com/steer-tui/steer/agent/tools/permissions"
)

// Plan mode (ModePlan) lets the model look but not touch: a call that
// changes nothing is judged as ModeAsk judges it (a read outside the
// workspace asks, fetch asks per domain unless a rule allows it), and any
// other call is refused with a result that names the plan file. The write
// or edit of that one file is the exception: it runs without asking,
// wherever the file lives. A deny rule still refuses everything it names,
// the plan file too. The runner names the file (Gater.SetMode).

// RefusedByPlan: plan mode refused a call that changes something. Like
// RefusedByRule it does not end the turn: the model reads why and goes on
// planning.
const RefusedByPlan = "plan"

// PlanRefusal is what the model reads of a call plan mode refused.
func PlanRefusal(planFile string) string {
	return fmt.Sprintf("plan mode: only read-only tools run until the plan is approved; write the plan to %s", planFile)
}

// planRule decides a call in plan mode once no deny rule refused it (pure;
// plan_test.go): the plan file's write runs, what changes nothing is judged
// as in ask mode, and the rest is refused, whatever an allow rule or a
// hook says.
func planRule(vote HookVote, d permissions.Decision, a Access, alwaysAsk, planFile string) ruling {
	switch {
	case writesPlan(a, planFile):
		return ruling{verdict: Run}
	case a.Mutating && a.Tool != fetchName:
		return ruling{verdict: Refuse, refused: RefusedByPlan, text: PlanRefusal(planFile)}
	}
	return rule(ModeAsk, vote, d, a, alwaysAsk)
}

// fetchName is the fetch tool's name: it counts as mutating so that ask
// mode asks per domain, but it changes nothing, so plan mode lets it ask.
const fetchName = "fetch"

// writesPlan reports whether a is a write or an edit of the plan file and
// of nothing else.
func writesPlan(a Access, planFile string) bool {
	if planFile == "" || (a.Tool != "write" && a.Tool != "edit") || len(a.Paths) != 1 {
		return false
	}
	return a.Paths[0] == planFile
}

// ResolvePlanFile is path as the file tools' Access names it: absolute,
// clean and with every symbolic link resolved, even when the file does not
// exist yet; the gate compares it with the paths of a call.
func ResolvePlanFile(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	real, err := resolveReal(filepath.Clean(abs))
	if err != nil {
		return abs
	}
	return real
}

// SetMode changes the approval mode of every call from now on; planFile
// is the plan file ModePlan lets the model write (see plan.go), resolved
// with ResolvePlanFile, and is ignored in the other modes. A call already
// judged keeps its verdict.
func (g Gater) SetMode(mode Mode, planFile string) {
	if g.g == nil {
		return
	}
	g.g.mu.Lock()
	defer g.g.mu.Unlock()
	g.g.mode, g.g.planFile = mode, ""
	if mode == ModePlan {
		g.g.planFile = planFile
	}
}

// Mode is the gate's approval mode now.
func (g Gater) Mode() Mode {
	if g.g == nil {
		return ""
	}
	mode, _ := g.g.policy()
	return mode
}

// policy is the mode and plan file calls are judged by now.
func (g *gate) policy() (Mode, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.mode, g.planFile
}

// decide is the verdict on a call in mode: plan mode's rules after a deny
// rule, else the rules and the mode (rule).
func decide(mode Mode, planFile string, vote HookVote, d permissions.Decision, a Access, alwaysAsk string) ruling {
	if mode == ModePlan && d.Verdict != permissions.Denied {
		return planRule(vote, d, a, alwaysAsk, planFile)
	}
	return rule(mode, vote, d, a, alwaysAsk)
}
