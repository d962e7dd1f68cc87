package contextguard

import (
	"context"

	"github.com/steer-tui/steer/agent"
)

// StreamError is a summary request that ended in an error event: Final is
// the failed message, with the provider's structured error for the failover
// classifier.
type StreamError struct {
	Final agent.Message
}

func (e *StreamError) Error() string {
	if e.Final.ErrorMessage != "" {
		return e.Final.ErrorMessage
	}
	return "summary request ended with " + string(e.Final.StopReason)
}

// Unwrap gives the provider's error, when there is one.
func (e *StreamError) Unwrap() error {
	if e.Final.Error == nil {
		return nil
	}
	return e.Final.Error
}

// StreamSummarizer is a Summarizer that asks model through stream, with
// opts (its MaxTokens set from the request). It drains the stream and
// returns the final message's text; a final message with stopReason error
// or aborted is a *StreamError. A summary cut short by the output limit
// (stopReason length) is returned as it is: most of a summary beats none.
func StreamSummarizer(stream agent.StreamFn, model agent.Model, opts agent.StreamOptions) Summarizer {
	return func(ctx context.Context, req agent.LLMContext, maxTokens int) (string, error) {
		o := opts
		o.MaxTokens = maxTokens
		s := stream(ctx, model, req, o)
		defer s.Close()
		for range s.Events() {
		}
		final, err := s.Result(ctx)
		if err != nil {
			return "", err
		}
		if final.StopReason == agent.StopReasonError || final.StopReason == agent.StopReasonAborted {
			return "", &StreamError{Final: final}
		}
		return final.TextContent(), nil
	}
}
