package contextguard

// The per-result limits by context window (SPEC §6.1). (seed)
const (
	smallWindowResultChars  = 16_000 // window < 100k tokens, or unknown
	mediumWindowResultChars = 32_000 // window ≥ 100k tokens
	largeWindowResultChars  = 64_000 // window ≥ 200k tokens
	mediumWindowTokens      = 100_000
	largeWindowTokens       = 200_000

	// maxResultSharePercent: one tool result never takes more than this share
	// of the window. (seed)
	maxResultSharePercent = 30
)

// ToolResultLimit is the most bytes of text one tool result may send to a
// model whose context window is contextWindow tokens: 16,000 below 100k
// tokens, 32,000 from 100k, 64,000 from 200k, and never more than 30 % of
// the window. An unknown window (≤ 0) gets the smallest tier.
//
// The 30 % is measured the way the guard measures a tool result (2 bytes per
// token, × 1.2: see Estimator), so a result at its limit never looks bigger
// than 30 % of the window to the guard; that is window/2 bytes. The cap only
// bites below 32k tokens (an 8k window allows 4,096 bytes).
func ToolResultLimit(contextWindow int) int {
	switch {
	case contextWindow <= 0:
		return smallWindowResultChars
	case contextWindow >= largeWindowTokens:
		return largeWindowResultChars
	case contextWindow >= mediumWindowTokens:
		return mediumWindowResultChars
	}
	shareTokens := contextWindow * maxResultSharePercent / 100
	return min(smallWindowResultChars, tokensToBytes(shareTokens, toolResultBytesPerToken))
}
