package runner

import "context"

// PromptHistory reads the prompt history of the current session's
// workspace (see sessionBook.PromptHistory).
func (h *Host) PromptHistory(ctx context.Context) (PromptHistory, error) {
	return h.Current().PromptHistory(ctx)
}

// AddPrompt appends to the prompt history of the current session's
// workspace.
func (h *Host) AddPrompt(ctx context.Context, p Prompt) (Prompt, error) {
	return h.Current().AddPrompt(ctx, p)
}

// SearchPrompts searches the prompt history of the current session's
// workspace.
func (h *Host) SearchPrompts(ctx context.Context, query string, before int64, limit int) ([]Prompt, error) {
	return h.Current().SearchPrompts(ctx, query, before, limit)
}
