package permissions

import (
	"slices"
	"testing"
)

// FuzzEvaluateBash checks, over the table's commands and whatever the
// fuzzer derives from them, what holds of every decision: no panic, the
// decision's own invariants, a verdict consistent with its parts, and
// grants from Narrow that allow the call they were made for.
func FuzzEvaluateBash(f *testing.F) {
	for _, rows := range [][]row{plainRows, compoundRows, wrapperRows, substitutionRows, redirectRows, heredocRows, quotingRows, rulesBRows} {
		for _, r := range rows {
			f.Add(r.cmd)
		}
	}
	fx := newFixture(f)
	rules := rulesA.parse(f)
	f.Fuzz(func(t *testing.T, cmd string) {
		call := Call{Tool: "bash", Command: fx.expand(cmd)}
		d := Evaluate(rules, call, fx.env)
		checkDecision(t, cmd, d)
		checkParts(t, cmd, d)
		if d.Verdict != Undecided && !d.Forced {
			return
		}
		grants := Narrow(rules, call, fx.env)
		if len(grants) == 0 {
			return
		}
		if got := Evaluate(append(slices.Clone(rules), grants...), call, fx.env); got.Verdict != Allowed {
			t.Errorf("%q: grants %q leave it %s (%s)", cmd, ruleTexts(grants), got.Verdict, got.Reason)
		}
	})
}

// checkParts checks that a decision follows from its parts.
func checkParts(t *testing.T, cmd string, d Decision) {
	t.Helper()
	count := map[Verdict]int{}
	for _, p := range d.Parts {
		count[p.Verdict]++
	}
	switch d.Verdict {
	case Allowed:
		if count[Allowed] != len(d.Parts) {
			t.Errorf("%q: allowed with parts %s", cmd, partsString(d.Parts))
		}
	case Undecided:
		if count[Denied]+count[Asks] > 0 {
			t.Errorf("%q: undecided with parts %s", cmd, partsString(d.Parts))
		}
	case Asks:
		if count[Denied] > 0 || count[Asks] == 0 && !d.Forced && d.Rule == "" {
			t.Errorf("%q: asks with parts %s", cmd, partsString(d.Parts))
		}
	}
}
