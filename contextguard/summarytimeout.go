package contextguard

import (
	"context"
	"errors"
	"time"

	"github.com/steer-tui/steer/agent"
)

// SummaryTimeout bounds the summary request of one built-in compaction,
// fallbacks included. It is long enough for a slow model to write a full
// summary (DefaultSummaryReserveTokens at a few tokens a second), and a
// little under the context engines' compaction safety timeout
// (engines.CompactSafetyTimeout, the seed's 300 s), so that the built-in
// compaction reports its own failure before the outer net gives up on it.
const SummaryTimeout = 4 * time.Minute

// errSummaryTimedOut is the cause of a summary request cut off by the
// timeout.
var errSummaryTimedOut = errors.New("the summary did not arrive in time")

// summarizeWithin asks summarize for the summary of req within limit. At
// the limit the request's context is cancelled and the answer is not waited
// for: a summariser that ignores its context cannot hold the compaction.
// timedOut reports that the limit, not the caller, ended it.
func summarizeWithin(ctx context.Context, limit time.Duration, summarize Summarizer, req agent.LLMContext, maxTokens int) (summary string, timedOut bool, err error) {
	sctx, cancel := context.WithTimeoutCause(ctx, limit, errSummaryTimedOut)
	defer cancel()
	type answer struct {
		text string
		err  error
	}
	done := make(chan answer, 1) // never blocks, even abandoned
	go func() {
		text, err := summarize(sctx, req, maxTokens)
		done <- answer{text, err}
	}()
	select {
	case a := <-done:
		return a.text, a.err != nil && ctx.Err() == nil && errors.Is(context.Cause(sctx), errSummaryTimedOut), a.err
	case <-sctx.Done():
		return "", ctx.Err() == nil, context.Cause(sctx)
	}
}
