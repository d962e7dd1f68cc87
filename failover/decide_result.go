package failover

// Result is what a completed attempt produced, as far as §5.4 cares.
type Result struct {
	VisibleText  bool // the reply carries visible text (or another visible payload)
	Reasoning    bool // the reply carries reasoning/thinking
	PlanningOnly bool // the reply is a plan with no final answer
	Aborted      bool // the run was aborted
	Delivered    bool // a reply already reached the user or a channel
	HookBlocked  bool // a hook blocked the run on purpose
	Silent       bool // the agent chose not to reply (a deliberate silent answer)
}

// ResultVerdict is ClassifyResult's answer; String gives its code for the
// failover trace.
type ResultVerdict int

// The verdicts. The first five never trigger a retry; the last three count
// as a failure (Failed).
const (
	ResultOK ResultVerdict = iota
	ResultAborted
	ResultDelivered
	ResultHookBlocked
	ResultSilent
	ResultEmpty
	ResultReasoningOnly
	ResultPlanningOnly
)

var resultCodes = [...]string{
	ResultOK:            "ok",
	ResultAborted:       "aborted",
	ResultDelivered:     "delivered",
	ResultHookBlocked:   "hook_block",
	ResultSilent:        "silent",
	ResultEmpty:         "empty_result",
	ResultReasoningOnly: "reasoning_only_result",
	ResultPlanningOnly:  "planning_only_result",
}

// String is the verdict's code.
func (v ResultVerdict) String() string {
	return codeOf(resultCodes[:], v, "ok")
}

// Failed reports whether the result counts as a failure for model fallback.
func (v ResultVerdict) Failed() bool { return v >= ResultEmpty }

// ClassifyResult says whether a completed run still counts as a failure for
// model fallback (SPEC §5.4). (seed) The guards come first, because
// retrying them would be wrong whatever the reply holds: an abort is the
// user's word, a delivered reply cannot be taken back, a hook block is a
// policy decision a retry would bypass, and silence was chosen. Then a run
// that produced nothing visible is a failure: empty, reasoning only,
// planning only. The runner feeds a failed verdict to Decide as
// StageAssistant with ReasonEmptyResponse.
//
//	rule           when                          verdict
//	aborted        Aborted                       aborted
//	delivered      Delivered                     delivered
//	hook_block     HookBlocked                   hook_block
//	silent         Silent                        silent
//	visible        VisibleText                   ok
//	planning_only  PlanningOnly                  planning_only_result
//	reasoning_only Reasoning                     reasoning_only_result
//	empty          otherwise                     empty_result
func ClassifyResult(r Result) ResultVerdict {
	switch {
	case r.Aborted:
		return ResultAborted
	case r.Delivered:
		return ResultDelivered
	case r.HookBlocked:
		return ResultHookBlocked
	case r.Silent:
		return ResultSilent
	case r.VisibleText:
		return ResultOK
	case r.PlanningOnly:
		return ResultPlanningOnly
	case r.Reasoning:
		return ResultReasoningOnly
	}
	return ResultEmpty
}
