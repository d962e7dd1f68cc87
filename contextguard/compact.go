package contextguard

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Summarizer asks a model for the summary of req, answering in at most
// maxTokens, and returns its text. The runner's summarizer falls back
// across models like a run does (SPEC §6.3); StreamSummarizer is one over a
// single StreamFn. It returns ctx's error when ctx ends first.
type Summarizer func(ctx context.Context, req agent.LLMContext, maxTokens int) (string, error)

// MinSummarizedTokens is the least conversation worth a summary: less than
// this before the kept tail, and the summary would not be shorter than what
// it replaces.
const MinSummarizedTokens = 1_000

// DefaultSummaryReserveTokens is the most a summary may take.
const DefaultSummaryReserveTokens = 8_192

// CompactOptions tune one compaction. Only Summarize is required.
type CompactOptions struct {
	// Summarize writes the summary.
	Summarize Summarizer
	// Window is the context window of the session's model, in tokens
	// (0: unknown); the kept tail never takes more than a quarter of it.
	Window int
	// SummaryWindow is the summariser's context window (0: Window). With
	// model fallback, give the smallest window among its models.
	SummaryWindow int
	// SummaryReserve is the most the summary may take, in tokens
	// (0: DefaultSummaryReserveTokens).
	SummaryReserve int
	// KeepTailTokens is how much recent conversation stays verbatim
	// (0: DefaultKeepTailTokens).
	KeepTailTokens int
	// Instructions are the user's, from `/compact [instructions]`.
	Instructions string
	// Force is a compaction the user asked for (trigger manual): it
	// summarises whatever the session's size (ForcedCut), and only an empty
	// session, or one that is nothing but its summary, is refused. The
	// MinSummarizedTokens and no-shrink checks do not apply: the user asked,
	// and the notice says the sizes before and after.
	Force bool
	// Now stamps the summary message (nil: time.Now).
	Now func() time.Time
	// Estimator measures messages (nil: without a cache).
	Estimator *Estimator
	// Timeout bounds the summary request (0: SummaryTimeout); at the limit
	// the request is cancelled and the compaction fails with
	// FailureSummaryTimeout.
	Timeout time.Duration
}

// CompactResult is a compacted session.
type CompactResult struct {
	// Messages is the session after compaction: the summary message
	// (SummaryMessage) followed by the kept tail, verbatim.
	Messages []agent.Message
	// Summary is the summary's text.
	Summary string
	// FirstKept is the index, in the messages given to Compact, of the first
	// kept one: the stored transcript is rewritten by replacing the messages
	// before it with Messages[0].
	FirstKept int
	// Summarized counts the messages the summary replaces; Deduplicated of
	// them were resends left out, and Omitted more were left out of the
	// summariser's request because it would not have fit.
	Summarized, Deduplicated, Omitted int
	// TokensBefore and TokensAfter are the estimated sizes of the session.
	TokensBefore, TokensAfter int
}

// CompactFailure says why a compaction did not happen. The runner reports
// any of them as compaction_failure.
type CompactFailure string

// The compaction failures.
const (
	// FailureNothingToCompact: the whole session fits in the kept tail, or
	// all before it is already a summary.
	FailureNothingToCompact CompactFailure = "nothing_to_compact"
	// FailureEmptySession: a forced compaction of a session with no
	// messages.
	FailureEmptySession CompactFailure = "empty_session"
	// FailureOnlySummary: a forced compaction of a session that holds
	// nothing but earlier summaries.
	FailureOnlySummary CompactFailure = "only_summary"
	// FailureSummarizer: the summariser failed (every model of its fallback).
	FailureSummarizer CompactFailure = "summarizer_failed"
	// FailureSummaryTimeout: the summary did not arrive within the
	// compaction's safety timeout (CompactOptions.Timeout); its request was
	// cancelled.
	FailureSummaryTimeout CompactFailure = "summary_timeout"
	// FailureEmptySummary: the summariser answered with no text.
	FailureEmptySummary CompactFailure = "empty_summary"
	// FailureNoShrink: the compacted session would not be smaller.
	FailureNoShrink CompactFailure = "no_shrink"
)

// CompactError is a compaction that did not happen, as data.
type CompactError struct {
	Failure CompactFailure
	// Err is the summariser's error, for FailureSummarizer.
	Err error
	// TokensBefore and TokensAfter are set for FailureNoShrink.
	TokensBefore, TokensAfter int
	// Timeout is the limit the summary missed, for FailureSummaryTimeout.
	Timeout time.Duration
}

func (e *CompactError) Error() string {
	switch e.Failure {
	case FailureNothingToCompact:
		return "compaction: nothing to compact: the session fits in the kept tail"
	case FailureEmptySession:
		return "compaction: nothing to compact: the session is empty"
	case FailureOnlySummary:
		return "compaction: nothing to compact: the session is only its summary already"
	case FailureSummarizer:
		return fmt.Sprintf("compaction: the summary failed: %v", e.Err)
	case FailureSummaryTimeout:
		return fmt.Sprintf("compaction: the summary did not arrive within %v", e.Timeout)
	case FailureEmptySummary:
		return "compaction: the summary came back empty"
	case FailureNoShrink:
		return fmt.Sprintf("compaction: the session would not shrink (%d tokens before, %d after)", e.TokensBefore, e.TokensAfter)
	}
	return "compaction: " + string(e.Failure)
}

func (e *CompactError) Unwrap() error { return e.Err }

// Compact summarises the older part of msgs and keeps the recent tail
// verbatim (SPEC §6.3): it finds the cut (FindCut), drops resent user
// messages before it (DedupeUserMessages), renders that part as labelled
// lines with each tool result capped at about 2,000 bytes of head and tail,
// leaves out the oldest lines if the summariser's request would still not
// fit its window, and asks opts.Summarize for a summary in a fixed structure
// that keeps identifiers exactly. msgs is not modified.
//
// With opts.Force the cut is ForcedCut's, and a session of one turn is
// summarised whole: Messages is then the summary alone.
//
// The summary request runs under opts.Timeout (SummaryTimeout): at the limit
// it is cancelled and the compaction fails (FailureSummaryTimeout), so the
// caller goes on as after any failed compaction.
//
// A compaction that does not happen returns a *CompactError; a cancelled ctx
// returns ctx's error as it is, since an abort is not a failure.
func Compact(ctx context.Context, msgs []agent.Message, opts CompactOptions) (CompactResult, error) {
	est := opts.Estimator
	cut := FindCut(msgs, keepTailTokens(opts.KeepTailTokens, opts.Window), est)
	if opts.Force {
		if failure := forcedRefusal(msgs); failure != "" {
			return CompactResult{}, &CompactError{Failure: failure}
		}
		cut = ForcedCut(msgs, cut, est)
	}
	if !hasNewConversation(msgs[:cut]) {
		return CompactResult{}, &CompactError{Failure: FailureNothingToCompact}
	}
	if older := est.Messages(msgs[:cut]); older < MinSummarizedTokens && !opts.Force {
		// A summary is about this long itself: asking for one would cost a
		// request and shrink nothing.
		before := est.Messages(msgs)
		return CompactResult{}, &CompactError{Failure: FailureNoShrink, TokensBefore: before, TokensAfter: before}
	}
	if opts.Summarize == nil {
		return CompactResult{}, &CompactError{Failure: FailureSummarizer, Err: errors.New("no summarizer")}
	}
	older, deduplicated := DedupeUserMessages(msgs[:cut])
	reserve := opts.SummaryReserve
	if reserve <= 0 {
		reserve = DefaultSummaryReserveTokens
	}
	window := opts.SummaryWindow
	if window <= 0 {
		window = opts.Window
	}
	chunks := serializeForSummary(older)
	omitted := 0
	if b := (Budget{Window: window, Reserve: reserve}); b.Known() {
		chunks, omitted = fitChunks(chunks, b.PromptTokens()-summaryRequestOverhead(opts.Instructions))
		reserve = b.Window - b.PromptTokens()
	}

	limit := opts.Timeout
	if limit <= 0 {
		limit = SummaryTimeout
	}
	summary, timedOut, err := summarizeWithin(ctx, limit, opts.Summarize, summaryRequest(chunks, omitted, opts.Instructions), reserve)
	if ctx.Err() != nil {
		return CompactResult{}, ctx.Err()
	}
	if timedOut {
		return CompactResult{}, &CompactError{Failure: FailureSummaryTimeout, Err: err, Timeout: limit}
	}
	if err != nil {
		return CompactResult{}, &CompactError{Failure: FailureSummarizer, Err: err}
	}
	if summary = strings.TrimSpace(summary); summary == "" {
		return CompactResult{}, &CompactError{Failure: FailureEmptySummary}
	}

	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	out := make([]agent.Message, 0, len(msgs)-cut+1)
	out = append(append(out, SummaryMessage(summary, now())), msgs[cut:]...)
	before, after := est.Messages(msgs), est.Messages(out)
	if after >= before && !opts.Force {
		return CompactResult{}, &CompactError{Failure: FailureNoShrink, TokensBefore: before, TokensAfter: after}
	}
	return CompactResult{
		Messages: out, Summary: summary, FirstKept: cut,
		Summarized: cut, Deduplicated: deduplicated, Omitted: omitted,
		TokensBefore: before, TokensAfter: after,
	}, nil
}

// forcedRefusal is why a forced compaction of msgs cannot happen, or "".
func forcedRefusal(msgs []agent.Message) CompactFailure {
	switch {
	case len(msgs) == 0:
		return FailureEmptySession
	case !hasNewConversation(msgs):
		return FailureOnlySummary
	}
	return ""
}

// hasNewConversation reports whether msgs hold anything but summaries.
func hasNewConversation(msgs []agent.Message) bool {
	for _, m := range msgs {
		if !IsSummary(m) {
			return true
		}
	}
	return false
}
