package contextguard

import (
	"context"
	"errors"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// branchInstructions ask for the summary of a branch the user leaves (pi's
// branch summaries): what was tried there matters when they go another way.
const branchInstructions = `This is a branch of the conversation the user is leaving: they go back to an earlier point and continue differently. Write a short summary of this branch for the agent, so that it knows what was tried here, what was found, what worked and what did not, and which files were changed. Be brief.`

// BranchOptions is what SummarizeBranch needs: the summariser and the
// window of the model that writes the summary (0: unknown).
type BranchOptions struct {
	Summarize Summarizer
	Window    int
}

// SummarizeBranch asks for a summary of branch, the messages from where the
// user goes back to where they were; its oldest messages are left out when
// it does not fit the window. It fails when there is no conversation in it.
func SummarizeBranch(ctx context.Context, branch []agent.Message, opts BranchOptions) (string, error) {
	if !hasNewConversation(branch) {
		return "", errors.New("the branch has no conversation to summarise")
	}
	if opts.Summarize == nil {
		return "", errors.New("no summarizer")
	}
	reserve := DefaultSummaryReserveTokens
	chunks := serializeForSummary(branch)
	omitted := 0
	if b := (Budget{Window: opts.Window, Reserve: reserve}); b.Known() {
		chunks, omitted = fitChunks(chunks, b.PromptTokens()-summaryRequestOverhead(branchInstructions))
		reserve = b.Window - b.PromptTokens()
	}
	summary, _, err := summarizeWithin(ctx, SummaryTimeout, opts.Summarize, summaryRequest(chunks, omitted, branchInstructions), reserve)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(summary), nil
}
