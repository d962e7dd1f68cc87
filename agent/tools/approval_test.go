package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	var (
		readInside   = Access{Tool: "read"}
		readOutside  = Access{Tool: "read", Outside: true}
		writeInside  = Access{Tool: "write", Mutating: true}
		writeOutside = Access{Tool: "write", Mutating: true, Outside: true}
		bash         = Access{Tool: "bash", Mutating: true}
	)
	tests := []struct {
		mode Mode
		a    Access
		want Verdict
	}{
		{ModeAsk, readInside, Run},
		{ModeAsk, readOutside, Ask},
		{ModeAsk, writeInside, Ask},
		{ModeAsk, writeOutside, Ask},
		{ModeAsk, bash, Ask},
		{ModeAuto, readInside, Run},
		{ModeAuto, readOutside, Refuse},
		{ModeAuto, writeInside, Run},
		{ModeAuto, writeOutside, Refuse},
		{ModeAuto, bash, Run},
		{ModeNever, readInside, Run},
		{ModeNever, readOutside, Refuse},
		{ModeNever, writeInside, Refuse},
		{ModeNever, writeOutside, Refuse},
		{ModeNever, bash, Refuse},
		{"", readInside, Run},
		{"", bash, Ask},
		{"bogus", readOutside, Ask},
	}
	for _, tt := range tests {
		if got := Decide(tt.mode, tt.a); got != tt.want {
			t.Errorf("Decide(%q, %+v) = %v, want %v", tt.mode, tt.a, got, tt.want)
		}
	}
}

func TestParseApproval(t *testing.T) {
	tests := []struct {
		in   string
		want Mode
		err  string
	}{
		{"ask", ModeAsk, ""},
		{"auto", ModeAuto, ""},
		{"never", ModeNever, ""},
		{"allow", "", `unknown approval mode "allow" (want ask, auto, never, plan; "allow" is now "auto")`},
		{"deny", "", `unknown approval mode "deny" (want ask, auto, never, plan; "deny" is now "never")`},
		{"Ask", "", `unknown approval mode "Ask" (want ask, auto, never, plan)`},
		{"", "", `unknown approval mode "" (want ask, auto, never, plan)`},
	}
	for _, tt := range tests {
		got, err := ParseApproval(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseApproval(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("ParseApproval(%q) error = %v, want %q", tt.in, err, tt.err)
		}
	}
}

func TestRefusalReason(t *testing.T) {
	tests := []struct {
		mode   Mode
		a      Access
		want   []string
		absent []string
	}{
		{ModeAuto, Access{Tool: "read", Outside: true, Paths: []string{"/etc/passwd"}},
			[]string{"read call reaches outside the workspace (/etc/passwd)", `"auto" never asks`, `set to "ask" the user is asked`}, nil},
		{ModeNever, Access{Tool: "bash", Mutating: true}, []string{`tool approval is "never"`, "bash", "changes files or runs a command", "--approve", `"ask" or "auto"`}, nil},
		{ModeNever, Access{Tool: "read", Outside: true, Paths: []string{"/etc/passwd"}}, []string{"outside the workspace", "/etc/passwd", `set to "ask", which asks`}, []string{`"auto"`}},
		{ModeNever, Access{Tool: "write", Mutating: true, Outside: true}, []string{"changes files", "outside the workspace", `"ask"`}, []string{`"auto"`}},
	}
	for _, tt := range tests {
		checkMentions(t, fmt.Sprintf("refusalReason(%s, %+v)", tt.mode, tt.a), refusalReason(tt.mode, tt.a), tt.want, tt.absent)
	}
}

// TestUnattendedReason: with nobody to answer, a call says it needs
// approval and why, names the rules that would let it run, points a call
// inside the workspace that no rule covers to --approve auto and one
// reaching outside, which auto refuses too, to a person; it never says
// "deny".
func TestUnattendedReason(t *testing.T) {
	tests := []struct {
		a            Access
		why          string
		grant        []string
		undecided    bool
		want, absent []string
	}{
		{Access{Tool: "write", Mutating: true}, noRuleAllows, []string{"Edit(./src/**)"}, true,
			[]string{"needs approval: this write call (no rule allows it)", "runs with the rule Edit(./src/**) in permissions.allow", "--approve auto"}, []string{"outside", "deny"}},
		{Access{Tool: "bash", Mutating: true}, "command substitution", []string{"Bash(echo:*)"}, false,
			[]string{"needs approval: this bash call (command substitution)", "Bash(echo:*)"}, []string{"--approve auto", "deny"}},
		{Access{Tool: "read", Outside: true, Paths: []string{"/etc/passwd"}}, noRuleAllows, []string{"Read(//etc/**)"}, true,
			[]string{"needs approval", "Read(//etc/**)", "steer rpc --approve ask"}, []string{"--approve auto", "deny"}},
	}
	for _, tt := range tests {
		checkMentions(t, fmt.Sprintf("unattendedReason(%+v)", tt.a), unattendedReason(tt.a, tt.why, tt.grant, tt.undecided), tt.want, tt.absent)
	}
}

// checkMentions fails unless got mentions every want and no absent.
func checkMentions(t *testing.T, what, got string, want, absent []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s = %q, want it to mention %q", what, got, w)
		}
	}
	for _, a := range absent {
		if strings.Contains(got, a) {
			t.Errorf("%s = %q, want no %q", what, got, a)
		}
	}
}
