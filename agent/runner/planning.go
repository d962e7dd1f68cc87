package runner

import (
	"strings"
	"unicode"
)

// A planning-only answer (SPEC §5.4, seed 000 §5.4's planning_only_result):
// the model said what it is going to do — "Let me read the config first." —
// and stopped, with no tool call and no answer. It counts as a failure, and
// where another model could still answer, the request falls back like an
// empty answer.
//
// What "delivered" means in a streaming front end: an answer is delivered
// once any of its text or tool calls reached the front ends (they show it
// as it streams), and a delivered answer is never retried, because what the
// user saw cannot be taken back. So that a plan can still fall back, the
// start of an answer is held back while it reads like one: at most
// planningHoldChars, and only while its opening is an intention ("I'll",
// "Let me", …) and the request offered tools. Any other text, a tool call,
// or more than that releases it at once; an answer that ends while held is
// judged then — a plan fails over, anything else goes out whole.

// planningHoldChars bounds the text held back while it reads like a plan:
// plans are a sentence or two.
const planningHoldChars = 280

// planningOpeners are how an intention opens, lower-cased.
var planningOpeners = []string{
	"i'll ", "i will ", "i'm going to ", "i am going to ", "let me ", "let's ",
	"first, i", "first i", "next, i", "now i", "now, i", "now let me", "i need to ", "i should ",
	"sure, i'll ", "sure, let me ", "okay, i'll ", "okay, let me ", "ok, let me ", "ok, i'll ",
}

// planningVerdict is what the text of an answer so far says about a plan.
type planningVerdict int

const (
	planningUndecided planningVerdict = iota // too short to tell: keep holding
	planningLikely                           // an intention's opening: keep holding
	planningNot                              // anything else: release
)

// readPlanning judges an answer's text so far.
func readPlanning(text string) planningVerdict {
	t := strings.ToLower(strings.TrimLeftFunc(text, unicode.IsSpace))
	if len(t) > planningHoldChars {
		return planningNot
	}
	for _, o := range planningOpeners {
		if strings.HasPrefix(t, o) {
			return planningLikely
		}
	}
	for _, o := range planningOpeners {
		if strings.HasPrefix(o, t) {
			return planningUndecided
		}
	}
	return planningNot
}

// isPlan says whether a whole answer without tool calls is a plan and
// nothing else: it opens with an intention, stays short, and does not
// read as a finished answer (a question to the user, a code block).
func isPlan(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || readPlanning(t) != planningLikely {
		return false
	}
	lower := strings.ToLower(t)
	return !strings.Contains(t, "?") && !strings.Contains(t, "```") && !strings.HasPrefix(lower, "let me know")
}
