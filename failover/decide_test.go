package failover

import (
	"fmt"
	"testing"
)

func TestDecide(t *testing.T) {
	allowFormat := Config{AllowFormatRetry: true}
	cases := []struct {
		name string
		f    Facts
		cfg  Config
		want Verdict
	}{
		{"success continues", Facts{Attempts: 1},
			Config{}, Verdict{DecisionContinueNormal, RecoveryNone, "ok"}},
		{"success at the limit still continues", Facts{Attempts: 99},
			Config{MaxAttempts: 3}, Verdict{DecisionContinueNormal, RecoveryNone, "ok"}},
		{"rate limit rotates first", Facts{Failed: true, Reason: ReasonRateLimit, ProfilesLeft: 1, ModelsLeft: 1},
			Config{}, Verdict{DecisionRotateProfile, RecoveryNone, "rotate"}},
		{"rate limit, profiles exhausted, falls back", Facts{Failed: true, Reason: ReasonRateLimit, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "fallback"}},
		{"rate limit, nothing left, surfaces", Facts{Failed: true, Reason: ReasonRateLimit},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "surface"}},
		{"billing rotates", Facts{Failed: true, Reason: ReasonBilling, ProfilesLeft: 2},
			Config{}, Verdict{DecisionRotateProfile, RecoveryNone, "rotate"}},
		{"format is terminal", Facts{Failed: true, Reason: ReasonFormat, ProfilesLeft: 3, ModelsLeft: 3},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "format_terminal"}},
		{"format retries allowed rotate", Facts{Failed: true, Reason: ReasonFormat, ProfilesLeft: 1},
			allowFormat, Verdict{DecisionRotateProfile, RecoveryNone, "rotate"}},
		{"format retries allowed fall back", Facts{Failed: true, Reason: ReasonFormat, ModelsLeft: 1},
			allowFormat, Verdict{DecisionFallbackModel, RecoveryNone, "fallback"}},
		{"timeout does not rotate", Facts{Failed: true, Reason: ReasonTimeout, ProfilesLeft: 2, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "fallback"}},
		{"timeout without a model left surfaces", Facts{Failed: true, Reason: ReasonTimeout, ProfilesLeft: 2},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "surface"}},
		{"timeout blamed on the profile rotates", Facts{Failed: true, Reason: ReasonTimeout, ProfileAtFault: true, ProfilesLeft: 1},
			Config{}, Verdict{DecisionRotateProfile, RecoveryNone, "rotate"}},
		{"timeout with a heavy prompt compacts", Facts{Failed: true, Reason: ReasonTimeout, PromptHeavy: true, ProfilesLeft: 1},
			Config{}, Verdict{DecisionContinueNormal, RecoveryCompactTimeout, "timeout_compact"}},
		{"timeout compactions are budgeted", Facts{Failed: true, Reason: ReasonTimeout, PromptHeavy: true, TimeoutCompactions: MaxTimeoutCompactions, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "fallback"}},
		{"overflow compacts", Facts{Failed: true, Reason: ReasonContextOverflow, ProfilesLeft: 1, ModelsLeft: 1},
			Config{}, Verdict{DecisionContinueNormal, RecoveryCompactOverflow, "overflow_compact"}},
		{"overflow compacted in the attempt retries uncompacted", Facts{Failed: true, Reason: ReasonContextOverflow, CompactedInAttempt: true},
			Config{}, Verdict{DecisionContinueNormal, RecoveryRetryUncompacted, "overflow_in_attempt"}},
		{"overflow budget spent truncates", Facts{Failed: true, Reason: ReasonContextOverflow, OverflowCompactions: MaxOverflowCompactions, OversizedToolResults: true},
			Config{}, Verdict{DecisionContinueNormal, RecoveryTruncateToolResults, "overflow_truncate"}},
		{"overflow after truncation surfaces", Facts{Failed: true, Reason: ReasonContextOverflow, OverflowCompactions: MaxOverflowCompactions, OversizedToolResults: true, Truncated: true, ModelsLeft: 2},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "overflow_exhausted"}},
		{"model not found falls back without rotating", Facts{Failed: true, Reason: ReasonModelNotFound, ProfilesLeft: 2, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "fallback"}},
		{"a refused connection falls back without rotating: every key dials the same host", Facts{Failed: true, Reason: ReasonNetwork, ProfilesLeft: 2, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "fallback"}},
		{"a refused connection with no model left surfaces", Facts{Failed: true, Reason: ReasonNetwork, ProfilesLeft: 2},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "surface"}},
		{"a page instead of a stream surfaces", Facts{Failed: true, Reason: ReasonMalformed, ProfilesLeft: 2, ModelsLeft: 2},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "surface"}},
		{"retry limit never escalates a page instead of a stream", Facts{Stage: StageRetryLimit, Failed: true, Reason: ReasonMalformed, ModelsLeft: 1},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "retry_limit"}},
		{"empty response falls back", Facts{Stage: StageAssistant, Failed: true, Reason: ReasonEmptyResponse, ProfilesLeft: 2, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "fallback"}},
		{"session expired surfaces", Facts{Failed: true, Reason: ReasonSessionExpired, ProfilesLeft: 2, ModelsLeft: 2},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "surface"}},
		{"unclassified refusal surfaces", Facts{Stage: StageAssistant, Failed: true, Reason: ReasonUnclassified, ProfilesLeft: 2, ModelsLeft: 2},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "surface"}},
		{"retry limit escalates a rate limit", Facts{Stage: StageRetryLimit, Failed: true, Reason: ReasonRateLimit, ProfilesLeft: 1, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "retry_limit_escalate"}},
		{"retry limit never escalates a timeout", Facts{Stage: StageRetryLimit, Failed: true, Reason: ReasonTimeout, ModelsLeft: 1},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "retry_limit"}},
		{"retry limit never escalates format", Facts{Stage: StageRetryLimit, Failed: true, Reason: ReasonFormat, ModelsLeft: 1},
			allowFormat, Verdict{DecisionSurfaceError, RecoveryNone, "retry_limit"}},
		{"retry limit never escalates session expired", Facts{Stage: StageRetryLimit, Failed: true, Reason: ReasonSessionExpired, ModelsLeft: 1},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "retry_limit"}},
		{"retry limit escalates a timeout after a rate limit", Facts{Stage: StageRetryLimit, Failed: true, RunReason: ReasonRateLimit, Reason: ReasonTimeout, ModelsLeft: 1},
			Config{}, Verdict{DecisionFallbackModel, RecoveryNone, "retry_limit_escalate"}},
		{"retry limit does not escalate a timeout after empty responses", Facts{Stage: StageRetryLimit, Failed: true, RunReason: ReasonEmptyResponse, Reason: ReasonTimeout, ModelsLeft: 1},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "retry_limit"}},
		{"retry limit without a model surfaces", Facts{Stage: StageRetryLimit, Failed: true, Reason: ReasonAuth, ProfilesLeft: 1},
			Config{}, Verdict{DecisionSurfaceError, RecoveryNone, "retry_limit"}},
		{"reaching the attempt limit is the retry limit stage", Facts{Failed: true, Reason: ReasonContextOverflow, Attempts: 3, ModelsLeft: 1},
			Config{MaxAttempts: 3}, Verdict{DecisionFallbackModel, RecoveryNone, "retry_limit_escalate"}},
		{"below the attempt limit is not", Facts{Failed: true, Reason: ReasonContextOverflow, Attempts: 2, ModelsLeft: 1},
			Config{MaxAttempts: 3}, Verdict{DecisionContinueNormal, RecoveryCompactOverflow, "overflow_compact"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Decide(c.f, c.cfg); got != c.want {
				t.Errorf("Decide = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestAttemptLimit(t *testing.T) {
	cases := []struct {
		profiles int
		cfg      Config
		want     int
	}{
		{0, Config{}, AttemptsMin},
		{1, Config{}, AttemptsMin},
		{2, Config{}, AttemptsBase + 2*AttemptsPerProfile},
		{5, Config{}, AttemptsBase + 5*AttemptsPerProfile},
		{1000, Config{}, AttemptsMax},
		{-3, Config{}, AttemptsMin},
		{5, Config{MaxAttempts: 4}, 4},
	}
	for _, c := range cases {
		if got := AttemptLimit(c.profiles, c.cfg); got != c.want {
			t.Errorf("AttemptLimit(%d, %+v) = %d, want %d", c.profiles, c.cfg, got, c.want)
		}
	}
}

func TestDecisionCodes(t *testing.T) {
	cases := map[Decision]string{
		DecisionContinueNormal: "continue_normal",
		DecisionRotateProfile:  "rotate_profile",
		DecisionFallbackModel:  "fallback_model",
		DecisionSurfaceError:   "surface_error",
	}
	for d, want := range cases {
		if d.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(d), d.String(), want)
		}
	}
	for _, s := range []Stage{StagePrompt, StageAssistant, StageRetryLimit} {
		if s.String() == "" {
			t.Errorf("stage %d has no code", int(s))
		}
	}
	for r := RecoveryNone; r <= RecoveryTruncateToolResults; r++ {
		if r.String() == "" {
			t.Errorf("recovery %d has no code", int(r))
		}
	}
}

// ExampleDecide walks a run through both levels: the rate-limited first key
// rotates to the second, the second is rate-limited too, so the run falls
// back to the next model. A timeout there is not blamed on the key, so with
// no model left it surfaces; an overflow compacts first.
func ExampleDecide() {
	steps := []Facts{
		{Failed: true, Reason: ReasonRateLimit, Profiles: 2, ProfilesLeft: 1, ModelsLeft: 1, Attempts: 1},
		{Failed: true, Reason: ReasonRateLimit, Profiles: 2, ProfilesLeft: 0, ModelsLeft: 1, Attempts: 2},
		{Failed: true, Reason: ReasonContextOverflow, Profiles: 2, ProfilesLeft: 1, Attempts: 3},
		{Failed: true, Reason: ReasonTimeout, Profiles: 2, ProfilesLeft: 1, Attempts: 4, OverflowCompactions: 1},
		{Failed: false, Attempts: 5},
	}
	for _, f := range steps {
		v := Decide(f, Config{})
		fmt.Println(f.Reason, "→", v.Decision, v.Recovery, "by", v.Rule)
	}
	// Output:
	// rate_limit → rotate_profile none by rotate
	// rate_limit → fallback_model none by fallback
	// context_overflow → continue_normal compact_overflow by overflow_compact
	// timeout → surface_error none by surface
	// unknown → continue_normal none by ok
}
