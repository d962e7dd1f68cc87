package failover

import "time"

// Decision is what the runner does after an attempt (SPEC §5.2): one of
// four actions. String gives the snake_case code shown in the failover
// trace and stored in run records.
type Decision int

// The decisions. (seed)
const (
	// DecisionContinueNormal: nothing to fail over. Either the attempt did
	// not fail, or it is retried on the same profile and model — after the
	// recovery Verdict.Recovery names (compaction, truncation).
	DecisionContinueNormal Decision = iota
	// DecisionRotateProfile: retry the same model with the next eligible
	// auth profile (cheap).
	DecisionRotateProfile
	// DecisionFallbackModel: start the run over on the next model of the
	// fallback chain (expensive).
	DecisionFallbackModel
	// DecisionSurfaceError: give up and show the error.
	DecisionSurfaceError
)

var decisionCodes = [...]string{
	DecisionContinueNormal: "continue_normal",
	DecisionRotateProfile:  "rotate_profile",
	DecisionFallbackModel:  "fallback_model",
	DecisionSurfaceError:   "surface_error",
}

// String is the decision's snake_case code.
func (d Decision) String() string {
	return codeOf(decisionCodes[:], d, "surface_error")
}

// MarshalText writes the code, so decisions read well in JSON.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Stage is where an attempt failed; the decision differs per stage as in
// OpenClaw's resolveRunFailoverDecision.
type Stage int

// The stages.
const (
	// StagePrompt: the provider call itself failed (an error instead of an
	// answer).
	StagePrompt Stage = iota
	// StageAssistant: the provider answered, but the assistant message ended
	// in an error, or the result counts as a failure (§5.4, ClassifyResult).
	StageAssistant
	// StageRetryLimit: the run spent its attempt budget (AttemptLimit).
	// Decide also switches to this stage by itself when Facts.Attempts
	// reaches the limit.
	StageRetryLimit
)

var stageCodes = [...]string{
	StagePrompt:     "prompt",
	StageAssistant:  "assistant",
	StageRetryLimit: "retry_limit",
}

// String is the stage's snake_case code.
func (s Stage) String() string {
	return codeOf(stageCodes[:], s, "prompt")
}

// Recovery is what the runner does to the session before a
// DecisionContinueNormal retry. It is a separate field, not a fifth
// decision, because the spec's four actions say *where* to retry and a
// recovery says *what to fix first*; the runner counts each recovery
// against its budget in Facts.
type Recovery int

// The recoveries.
const (
	RecoveryNone Recovery = iota
	// RecoveryCompactOverflow: compact the session (trigger "overflow") and
	// retry; the runner adds one to Facts.OverflowCompactions.
	RecoveryCompactOverflow
	// RecoveryCompactTimeout: compact the session (trigger "timeout") and
	// retry; the runner adds one to Facts.TimeoutCompactions.
	RecoveryCompactTimeout
	// RecoveryRetryUncompacted: the attempt already compacted inside itself
	// (SPEC §6.3): retry once without compacting again. The runner counts
	// it as an overflow compaction, which bounds it.
	RecoveryRetryUncompacted
	// RecoveryTruncateToolResults: truncate the oversized tool results in
	// the session and retry; the runner sets Facts.Truncated.
	RecoveryTruncateToolResults
)

var recoveryCodes = [...]string{
	RecoveryNone:                "none",
	RecoveryCompactOverflow:     "compact_overflow",
	RecoveryCompactTimeout:      "compact_timeout",
	RecoveryRetryUncompacted:    "retry_uncompacted",
	RecoveryTruncateToolResults: "truncate_tool_results",
}

// String is the recovery's snake_case code.
func (r Recovery) String() string {
	return codeOf(recoveryCodes[:], r, "none")
}

// MarshalText writes the code.
func (r Recovery) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Facts are what the runner knows about the attempt that just ended. All
// counts are per run. The zero value is "the first attempt succeeded".
type Facts struct {
	Stage Stage
	// Failed is false when the attempt produced a usable result: Decide
	// returns continue_normal whatever the other fields say.
	Failed bool
	// Reason is this attempt's reason; the stage rules act on it.
	Reason Reason
	// RunReason is the merged reason of the run's earlier attempts
	// (MergeReason). The retry-limit rules read the merge of RunReason and
	// Reason, so a run that was rate-limited and then timed out may still
	// escalate to another model.
	RunReason Reason
	// ProfileAtFault is other evidence that the profile, not the model or
	// the network, caused a timeout (for example the same key timing out
	// while another key answers). Without it a timeout never rotates.
	ProfileAtFault bool
	// ProfilesLeft is the number of eligible profiles not yet tried for the
	// current model (see Rotation.Left).
	ProfilesLeft int
	// ModelsLeft is the number of fallback models after the current one.
	ModelsLeft int
	// Profiles is the number of candidate profiles of the run; it sizes the
	// attempt limit.
	Profiles int
	// Attempts is the number of attempts made so far, this one included.
	Attempts int
	// TimeoutCompactions and OverflowCompactions are the compactions already
	// triggered by timeouts and by overflows in this run.
	TimeoutCompactions  int
	OverflowCompactions int
	// PromptHeavy: the prompt filled more than the context guard's timeout
	// threshold (65 % of the window, SPEC §6.3) when the model timed out.
	PromptHeavy bool
	// CompactedInAttempt: a compaction already ran inside this attempt.
	CompactedInAttempt bool
	// OversizedToolResults: the session holds tool results the context
	// guard could truncate; Truncated: they were truncated already.
	OversizedToolResults bool
	Truncated            bool
}

// Config is the part of the configuration the decision reads. The zero
// value is the default.
type Config struct {
	// AllowFormatRetry lets a format failure rotate and fall back like any
	// other; off by default because the same body is rejected everywhere.
	AllowFormatRetry bool
	// MaxAttempts, when positive, replaces the attempt limit AttemptLimit
	// derives from the number of profiles.
	MaxAttempts int
	// CooldownWait bounds every wait for a provider: a cooldown waited out
	// (DecideCooldownWait) and a same-profile retry's delay (DecideRetry).
	// nil takes DefaultCooldownWait; 0 means never wait (config
	// auth.maxCooldownWaitSeconds).
	CooldownWait *time.Duration
}

// Verdict is Decide's answer: the action, the recovery to run before a
// continue_normal retry, and the name of the rule that fired, for the trace.
type Verdict struct {
	Decision Decision
	Recovery Recovery
	Rule     string
}

// Retry budgets per run. (seed)
const (
	MaxTimeoutCompactions  = 2 // MAX_TIMEOUT_COMPACTION_ATTEMPTS
	MaxOverflowCompactions = 3 // MAX_OVERFLOW_COMPACTION_ATTEMPTS
)

// The overall attempt limit: a base plus a share per candidate profile,
// clamped. The seed only says "from the number of candidate profiles and the
// config"; these values are ours (after OpenClaw's retry-limit.ts). Every
// attempt either rotates, falls back or spends a bounded recovery, so the
// limit is a safety net against a loop nobody foresaw, not a tuning knob.
const (
	AttemptsBase       = 24
	AttemptsPerProfile = 8
	AttemptsMin        = 32
	AttemptsMax        = 160
)

// AttemptLimit is the number of attempts a run may make with the given
// number of candidate profiles.
func AttemptLimit(profiles int, cfg Config) int {
	if cfg.MaxAttempts > 0 {
		return cfg.MaxAttempts
	}
	n := AttemptsBase + AttemptsPerProfile*max(profiles, 0)
	return min(max(n, AttemptsMin), AttemptsMax)
}

// Decide maps what failed, at which stage, to one action (SPEC §5.2). It is
// the only decision point; it is pure, and the rules are the ordered table
// decideRules (first match wins), which reads like the spec:
//
//	rule                   when                                           verdict
//	ok                     the attempt did not fail                       continue_normal
//	retry_limit_escalate   attempts spent, run reason escalatable, model  fallback_model
//	retry_limit            attempts spent                                 surface_error
//	format_terminal        format, format retries not allowed             surface_error
//	overflow_in_attempt    overflow, attempt compacted already, budget    continue_normal + retry_uncompacted
//	overflow_compact       overflow, overflow budget left                 continue_normal + compact_overflow
//	overflow_truncate      overflow, oversized tool results not truncated continue_normal + truncate_tool_results
//	overflow_exhausted     overflow                                       surface_error
//	timeout_compact        timeout, prompt heavy, timeout budget left     continue_normal + compact_timeout
//	rotate                 rotation can help, a profile left              rotate_profile
//	fallback               another model can help, a model left           fallback_model
//	surface                otherwise                                      surface_error
//
// Which reasons rotation and fallback can help is the table reasonPolicies.
func Decide(f Facts, cfg Config) Verdict {
	if f.Failed && f.Attempts >= AttemptLimit(f.Profiles, cfg) {
		f.Stage = StageRetryLimit
	}
	for _, r := range decideRules {
		if r.when(f, cfg) {
			return Verdict{Decision: r.decision, Recovery: r.recovery, Rule: r.name}
		}
	}
	return Verdict{Decision: DecisionSurfaceError, Rule: "surface"}
}

type decideRule struct {
	name     string
	when     func(Facts, Config) bool
	decision Decision
	recovery Recovery
}

var decideRules = []decideRule{
	{"ok", func(f Facts, _ Config) bool { return !f.Failed },
		DecisionContinueNormal, RecoveryNone},
	{"retry_limit_escalate", func(f Facts, _ Config) bool {
		return f.Stage == StageRetryLimit && Escalatable(MergeReason(f.RunReason, f.Reason)) && f.ModelsLeft > 0
	}, DecisionFallbackModel, RecoveryNone},
	{"retry_limit", func(f Facts, _ Config) bool { return f.Stage == StageRetryLimit },
		DecisionSurfaceError, RecoveryNone},
	{"format_terminal", func(f Facts, c Config) bool {
		return f.Reason == ReasonFormat && !c.AllowFormatRetry
	}, DecisionSurfaceError, RecoveryNone},
	{"overflow_in_attempt", func(f Facts, _ Config) bool {
		return f.Reason == ReasonContextOverflow && f.CompactedInAttempt &&
			f.OverflowCompactions < MaxOverflowCompactions
	}, DecisionContinueNormal, RecoveryRetryUncompacted},
	{"overflow_compact", func(f Facts, _ Config) bool {
		return f.Reason == ReasonContextOverflow && f.OverflowCompactions < MaxOverflowCompactions
	}, DecisionContinueNormal, RecoveryCompactOverflow},
	{"overflow_truncate", func(f Facts, _ Config) bool {
		return f.Reason == ReasonContextOverflow && f.OversizedToolResults && !f.Truncated
	}, DecisionContinueNormal, RecoveryTruncateToolResults},
	{"overflow_exhausted", func(f Facts, _ Config) bool { return f.Reason == ReasonContextOverflow },
		DecisionSurfaceError, RecoveryNone},
	{"timeout_compact", func(f Facts, _ Config) bool {
		return f.Reason == ReasonTimeout && f.PromptHeavy && f.TimeoutCompactions < MaxTimeoutCompactions
	}, DecisionContinueNormal, RecoveryCompactTimeout},
	{"rotate", func(f Facts, _ Config) bool { return rotationHelps(f) && f.ProfilesLeft > 0 },
		DecisionRotateProfile, RecoveryNone},
	{"fallback", func(f Facts, _ Config) bool {
		return reasonPolicies[f.Reason].fallback && f.ModelsLeft > 0
	}, DecisionFallbackModel, RecoveryNone},
}

// rotationHelps: the reason's policy says another key can help, or — for a
// timeout — other evidence blames the profile.
func rotationHelps(f Facts) bool {
	if f.Reason == ReasonTimeout {
		return f.ProfileAtFault
	}
	return reasonPolicies[f.Reason].rotate
}

// Escalatable reports whether reaching the retry limit with this reason may
// move to another model: not for timeout, format or session_expired, which
// another model would most likely repeat (seed), nor malformed, which is
// surfaced at once everywhere else: the base URL answers every model with
// the same page.
func Escalatable(r Reason) bool {
	return r != ReasonTimeout && r != ReasonFormat && r != ReasonSessionExpired && r != ReasonMalformed
}
