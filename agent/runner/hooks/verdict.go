package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Decision is what a hook says about what its event announces, in the
// order Combine ranks them: a later one wins.
type Decision int

// The decisions. Deny is also "block" for the events without permissions.
const (
	None Decision = iota
	Allow
	Ask
	Deny
)

func (d Decision) String() string {
	return [...]string{"none", "allow", "ask", "deny"}[d]
}

// Output is the JSON a hook may print on stdout with exit status 0,
// Claude Code's fields.
type Output struct {
	// Continue false stops the agent after this event (StopReason says why
	// to the user).
	Continue       *bool  `json:"continue"`
	StopReason     string `json:"stopReason"`
	SuppressOutput bool   `json:"suppressOutput"`
	SystemMessage  string `json:"systemMessage"`
	// Decision is "block" (and, for PreToolUse, the older "approve").
	Decision           string          `json:"decision"`
	Reason             string          `json:"reason"`
	HookSpecificOutput *SpecificOutput `json:"hookSpecificOutput"`
}

// SpecificOutput is Output's hookSpecificOutput.
type SpecificOutput struct {
	HookEventName string `json:"hookEventName"`
	// PermissionDecision is allow, deny or ask (PreToolUse).
	PermissionDecision       string         `json:"permissionDecision"`
	PermissionDecisionReason string         `json:"permissionDecisionReason"`
	UpdatedInput             map[string]any `json:"updatedInput"`
	AdditionalContext        string         `json:"additionalContext"`
}

// Verdict is what one run of a hook says.
type Verdict struct {
	Decision Decision
	// Reason is why it denies, asks or blocks: the model reads it.
	Reason string
	// UpdatedInput replaces the tool call's arguments (PreToolUse).
	UpdatedInput map[string]any
	// Context is added to what the model reads.
	Context string
	// Stop says to stop the agent (continue: false), StopReason why.
	Stop       bool
	StopReason string
	// Problem is what went wrong with the hook ("exited with status 1:
	// …"); the verdict then says nothing else.
	Problem string
}

// Interpret reads one finished run of a hook of event ev: its exit status
// and what it printed.
func Interpret(ev Event, exit int, stdout, stderr string) Verdict {
	switch exit {
	case 0:
		return interpretOutput(ev, strings.TrimSpace(stdout))
	case 2:
		reason := strings.TrimSpace(stderr)
		if reason == "" {
			reason = "blocked by a " + string(ev) + " hook"
		}
		if !ev.CanBlock() {
			return Verdict{Problem: "exited with status 2 (" + string(ev) + " cannot block): " + firstLine(reason)}
		}
		return Verdict{Decision: Deny, Reason: reason}
	}
	p := fmt.Sprintf("exited with status %d", exit)
	if s := firstLine(strings.TrimSpace(stderr)); s != "" {
		p += ": " + s
	}
	return Verdict{Problem: p}
}

// interpretOutput reads the stdout of a hook that exited 0.
func interpretOutput(ev Event, out string) Verdict {
	if !strings.HasPrefix(out, "{") {
		if out != "" && (ev == UserPromptSubmit || ev == SessionStart) {
			return Verdict{Context: out} // plain text is context there, as in Claude Code
		}
		return Verdict{}
	}
	var o Output
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		return Verdict{Problem: "its output is not valid JSON: " + err.Error()}
	}
	v := Verdict{Reason: o.Reason}
	if o.Continue != nil && !*o.Continue {
		v.Stop, v.StopReason = true, o.StopReason
	}
	if s := o.HookSpecificOutput; s != nil {
		if s.HookEventName != "" && s.HookEventName != string(ev) {
			return Verdict{Problem: fmt.Sprintf("hookSpecificOutput.hookEventName is %q in a %s hook", s.HookEventName, ev)}
		}
		v.Context, v.UpdatedInput = s.AdditionalContext, s.UpdatedInput
		if s.PermissionDecision != "" {
			if ev != PreToolUse {
				return Verdict{Problem: "permissionDecision is for PreToolUse hooks, not " + string(ev)}
			}
			d, ok := map[string]Decision{"allow": Allow, "ask": Ask, "deny": Deny}[s.PermissionDecision]
			if !ok {
				return Verdict{Problem: fmt.Sprintf("unknown permissionDecision %q (want allow, deny or ask)", s.PermissionDecision)}
			}
			v.Decision, v.Reason = d, s.PermissionDecisionReason
			return v
		}
	}
	switch {
	case o.Decision == "":
	case o.Decision == "block" && ev.CanBlock():
		v.Decision = Deny
	case o.Decision == "approve" && ev == PreToolUse:
		v.Decision = Allow // the older form of permissionDecision "allow"
	default:
		return Verdict{Problem: fmt.Sprintf("decision %q means nothing for a %s hook", o.Decision, ev)}
	}
	if v.Decision == Deny && v.Reason == "" {
		v.Reason = "blocked by a " + string(ev) + " hook"
	}
	return v
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Result is the combined verdict of an event's hooks.
type Result struct {
	Decision Decision
	// Reason joins the reasons of the hooks whose decision won.
	Reason       string
	UpdatedInput map[string]any
	// Context joins every hook's context, in configuration order.
	Context    string
	Stop       bool
	StopReason string
	// Ran counts the hooks that ran.
	Ran int
}

// Combine merges the verdicts of one event's hooks, in configuration
// order: the strongest decision wins (deny > ask > allow > none), with the
// reasons of every hook that gave it; the first updatedInput of a hook
// that did not deny counts; contexts are all kept.
func Combine(vs []Verdict) Result {
	r := Result{Ran: len(vs)}
	var reasons, contexts, stops []string
	for _, v := range vs {
		if v.Problem != "" {
			continue
		}
		switch {
		case v.Decision > r.Decision:
			r.Decision, reasons = v.Decision, nil
			fallthrough
		case v.Decision == r.Decision && v.Decision != None:
			if v.Reason != "" {
				reasons = append(reasons, v.Reason)
			}
		}
		if v.UpdatedInput != nil && r.UpdatedInput == nil && v.Decision != Deny {
			r.UpdatedInput = v.UpdatedInput
		}
		if v.Context != "" {
			contexts = append(contexts, v.Context)
		}
		if v.Stop {
			r.Stop = true
			if v.StopReason != "" {
				stops = append(stops, v.StopReason)
			}
		}
	}
	r.Reason = strings.Join(reasons, "; ")
	r.Context = strings.Join(contexts, "\n")
	r.StopReason = strings.Join(stops, "; ")
	return r
}
