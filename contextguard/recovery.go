package contextguard

// CompactionReason is why a compaction runs, as compaction_start and
// compaction_end events name it (pi's reasons).
type CompactionReason string

// The four triggers of SPEC §6.3. (seed)
const (
	// ReasonManual: `/compact [instructions]` in the TUI, `compact` over rpc.
	ReasonManual CompactionReason = "manual"
	// ReasonThreshold: the pre-flight route compacts (Route.Compacts), or a
	// MidTurnSignal.
	ReasonThreshold CompactionReason = "threshold"
	// ReasonOverflow: the provider said the context overflowed.
	ReasonOverflow CompactionReason = "overflow"
	// ReasonTimeout: the model timed out with the prompt filling most of the
	// window (CompactAfterTimeout).
	ReasonTimeout CompactionReason = "timeout"
)

// How often a run may compact for one trigger. (seed)
const (
	MaxOverflowCompactions = 3
	MaxTimeoutCompactions  = 2
	// timeoutFillPercent: a timeout with a prompt this full is likely the
	// prompt's length making every request too slow, which compaction ends.
	timeoutFillPercent = 65
)

// CompactAfterTimeout reports whether a model timeout should compact the
// session: the prompt filled more than 65 % of the window, and the run has
// compacted for a timeout fewer than MaxTimeoutCompactions times.
func CompactAfterTimeout(promptTokens, window, timeoutCompactions int) bool {
	return window > 0 && promptTokens*100 > window*timeoutFillPercent && timeoutCompactions < MaxTimeoutCompactions
}

// OverflowState is what the overflow recovery chain knows when a request
// overflowed.
type OverflowState struct {
	// CompactedInAttempt: a compaction already ran for this request before
	// it was sent (pre-flight, mid-turn).
	CompactedInAttempt bool
	// Recovered: the chain's first step was taken for this request — the
	// retry that gave that compaction its chance, or the chain's own
	// compaction. Whatever overflows after it goes on to the truncation.
	Recovered bool
	// Compactions counts the run's compactions for overflow.
	Compactions int
	// CompactionFailed: the chain's compaction did not happen (a
	// *CompactError).
	CompactionFailed bool
	// OversizedToolResults: the session holds tool results over their limit
	// (ReducibleToolResultChars > 0).
	OversizedToolResults bool
	// TruncatedToolResults: the chain already cut them in the session.
	TruncatedToolResults bool
}

// OverflowStep is the recovery chain's next step.
type OverflowStep int

// The steps, in the order the chain tries them.
const (
	// StepRetry: send the request again without compacting again; the
	// compaction that already ran for it may be enough.
	StepRetry OverflowStep = iota
	// StepCompact: compact for overflow (ReasonOverflow), then retry.
	StepCompact
	// StepTruncateToolResults: cut the session's tool results to their limit
	// (TruncateToolResults), then retry.
	StepTruncateToolResults
	// StepGiveUp: end the run with OverflowState.GiveUpReason.
	StepGiveUp
)

var overflowStepNames = [...]string{"retry", "compact", "truncate_tool_results", "give_up"}

func (s OverflowStep) String() string {
	if s < 0 || int(s) >= len(overflowStepNames) {
		return "unknown"
	}
	return overflowStepNames[s]
}

// NextOverflowStep is the overflow recovery chain in the seed's steps
// (seed 002 §5, §12): a request that overflows is compacted (or, when a
// compaction already ran for it, retried once as it is, so that compaction
// gets its chance) and tried again; if it still overflows, the session's
// oversized tool results are cut and it is tried again; if it still
// overflows, or there is nothing to cut, the run gives up. A run compacts
// for overflow at most MaxOverflowCompactions times; a compaction that
// fails goes straight to the cut. (seed)
func NextOverflowStep(s OverflowState) OverflowStep {
	switch {
	case !s.Recovered && s.CompactedInAttempt:
		return StepRetry
	case !s.Recovered && !s.CompactionFailed && s.Compactions < MaxOverflowCompactions:
		return StepCompact
	case s.OversizedToolResults && !s.TruncatedToolResults:
		return StepTruncateToolResults
	}
	return StepGiveUp
}

// GiveUpReason is the failure a run ends with when the chain gives up:
// compaction_failure when its compaction failed, else context_overflow.
func (s OverflowState) GiveUpReason() string {
	if s.CompactionFailed {
		return "compaction_failure"
	}
	return "context_overflow"
}
