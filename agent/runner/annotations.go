package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// The annotations of the attempt loop in the event stream (SPEC §12): every
// attempt, every failover, and the same-profile retries in pi's shapes.
const (
	AnnotationAttemptStart = "attempt_start"
	AnnotationAttemptEnd   = "attempt_end"
	AnnotationFailover     = "failover"
	AnnotationRetryStart   = "auto_retry_start"
	AnnotationRetryEnd     = "auto_retry_end"
)

// AttemptInfo is the Data of the attempt loop's annotations: one attempt,
// or for a failover the move from one profile or model to the next.
type AttemptInfo struct {
	Profile string `json:"profile,omitempty"`
	Model   string `json:"model,omitempty"`
	Attempt int    `json:"attempt,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Result is why an answer that came counts as a failure
	// (failover.ClassifyResult: empty_result, reasoning_only_result,
	// planning_only_result).
	Result     string `json:"result,omitempty"`
	Decision   string `json:"decision,omitempty"`
	From       string `json:"from,omitempty"`
	To         string `json:"to,omitempty"`
	DurationMs int64  `json:"durationMs,omitempty"`
}

// Summary words a failover for people: what failed, and where the request
// goes next.
func (i AttemptInfo) Summary() string {
	switch i.Decision {
	case failover.DecisionRotateProfile.String():
		return fmt.Sprintf("%s on profile %s: trying profile %s", i.Reason, i.From, i.To)
	case failover.DecisionFallbackModel.String():
		return fmt.Sprintf("%s on model %s: falling back to %s", i.Reason, i.From, i.To)
	}
	return fmt.Sprintf("%s: %s %s → %s", i.Reason, i.Decision, i.From, i.To)
}

// RetryStartInfo is the Data of auto_retry_start, in pi's shape {attempt,
// maxAttempts, delayMs, errorMessage}: the request waits delayMs, then
// tries the profile that just failed again. steer adds what failed where,
// and the header the delay came from ("" for none: no wait, or the backoff).
type RetryStartInfo struct {
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int64  `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
	Reason       string `json:"reason"`
	Profile      string `json:"profile"`
	Model        string `json:"model"`
	DelaySource  string `json:"delaySource,omitempty"`
	// Cooldown says the request waits for a cooldown to end — Profile's
	// window for Model, which lasts until Until in the ledger — rather than
	// retrying after a short delay (every candidate was cooling down).
	Cooldown bool       `json:"cooldown,omitempty"`
	Until    *time.Time `json:"until,omitempty"`
}

// Summary words the retry for people, with left the time still to wait:
// "overloaded on profile anthropic:main: retrying in 3s (1/2)", or for a
// cooldown "waiting 23s for openai:a (rate_limit)".
func (i RetryStartInfo) Summary(left time.Duration) string {
	if i.Cooldown && left > 0 {
		return fmt.Sprintf("waiting %s for %s (%s)", left.Round(time.Second), i.Profile, i.Reason)
	}
	if i.Cooldown {
		return fmt.Sprintf("waited %s for %s (%s)", i.Delay().Round(time.Second), i.Profile, i.Reason)
	}
	when := "retrying now"
	if left > 0 {
		when = "retrying in " + left.Round(time.Second).String()
		if left < time.Second {
			when = "retrying in " + left.Round(time.Millisecond).String()
		}
	}
	return fmt.Sprintf("%s on profile %s: %s (%d/%d)", i.Reason, i.Profile, when, i.Attempt, i.MaxAttempts)
}

// Delay is the wait before the retry.
func (i RetryStartInfo) Delay() time.Duration { return time.Duration(i.DelayMs) * time.Millisecond }

// RetryEndInfo is the Data of auto_retry_end, in pi's shape {success,
// attempt, finalError?}: how the last retry of a sequence went. It comes
// after that retry's attempt_end, and before the failover that follows a
// failed sequence.
type RetryEndInfo struct {
	Success    bool   `json:"success"`
	Attempt    int    `json:"attempt"`
	FinalError string `json:"finalError,omitempty"`
}

// annotate puts an annotation into the request's stream, in order with the
// response (see agent.Annotation).
func annotate(ctx context.Context, out *agent.AssistantStream, kind string, data any) {
	out.Push(ctx, agent.Annotate(agent.Annotation{Kind: kind, Data: data}))
}
