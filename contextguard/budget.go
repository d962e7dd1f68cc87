package contextguard

import "github.com/steer-tui/steer/agent"

// Budget is what one request may use of a model's context window.
type Budget struct {
	// Window is the model's context window in tokens. Zero means unknown:
	// the guard then only truncates tool results, at the smallest limit.
	// After a provider's overflow error that states its limit, the runner
	// sets the limit it read (OverflowLimit) here for the rest of the run.
	Window int
	// Reserve is kept for the answer: the request's max output tokens.
	// Zero means DefaultReserveTokens.
	Reserve int
}

// DefaultReserveTokens is the answer's reserve when the request states none.
const DefaultReserveTokens = 16_384

// minPromptTokens: the reserve shrinks so that at least min(8,000, half the
// window) stays for the prompt. (seed)
const minPromptTokens = 8_000

// BudgetFor is the budget of a request to model with opts: the reserve is
// the max tokens the request asks for, else the model's max output.
func BudgetFor(model agent.Model, opts agent.StreamOptions) Budget {
	reserve := opts.MaxTokens
	if reserve <= 0 {
		reserve = model.MaxOutput
	}
	return Budget{Window: model.ContextWindow, Reserve: reserve}
}

// Known reports whether the window is known.
func (b Budget) Known() bool { return b.Window > 0 }

// PromptTokens is how many tokens the prompt may use: the window less the
// reserve, the reserve shrunk so that at least min(8,000, window/2) stays
// for the prompt. Zero when the window is unknown.
func (b Budget) PromptTokens() int {
	if !b.Known() {
		return 0
	}
	reserve := b.Reserve
	if reserve <= 0 {
		reserve = DefaultReserveTokens
	}
	reserve = min(reserve, b.Window-min(minPromptTokens, b.Window/2))
	return b.Window - reserve
}
