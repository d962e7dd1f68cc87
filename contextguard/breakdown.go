package contextguard

import (
	"math"
	"sort"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// FixedParts measures the pieces of a request that are not messages — the
// system prompt cut into pieces (system joined is llm.SystemPrompt) and
// each tool schema — so that a breakdown of the request adds up: the
// returned sizes sum to exactly what the estimator counts for them
// together. The estimator rounds the whole fixed part once, with its
// margin; the pieces get that total shared by their unrounded sizes (the
// largest remainders take the odd tokens), each within a token of its own
// size. The system prompt's framing goes to its first piece.
func FixedParts(system []string, tools []agent.ToolSpec) (systemTokens, toolTokens []int) {
	raw := make([]float64, 0, len(system)+len(tools))
	for i, s := range system {
		r := float64(len(s)) / textBytesPerToken
		if i == 0 {
			r += messageOverheadTokens
		}
		raw = append(raw, r)
	}
	if strings.Join(system, "") == "" {
		// an empty prompt is not sent, framing and all (estimateFixed)
		for i := range system {
			raw[i] = 0
		}
	}
	for _, t := range tools {
		raw = append(raw, blockOverheadTokens+float64(len(t.Name)+len(t.Description))/textBytesPerToken+
			float64(len(t.Parameters))/jsonBytesPerToken)
	}
	total := estimateFixed(agent.LLMContext{SystemPrompt: strings.Join(system, ""), Tools: tools})
	shares := apportion(raw, total)
	return shares[:len(system)], shares[len(system):]
}

// apportion shares total between pieces in proportion to raw (largest
// remainder), so that the shares sum to total exactly.
func apportion(raw []float64, total int) []int {
	out := make([]int, len(raw))
	sum := 0.0
	for _, r := range raw {
		sum += r
	}
	if sum == 0 || len(raw) == 0 {
		return out
	}
	given := 0
	rest := make([]int, len(raw))
	frac := make([]float64, len(raw))
	for i, r := range raw {
		exact := r / sum * float64(total)
		out[i] = int(math.Floor(exact))
		frac[i] = exact - float64(out[i])
		given += out[i]
		rest[i] = i
	}
	sort.SliceStable(rest, func(a, b int) bool { return frac[rest[a]] > frac[rest[b]] })
	for k := 0; given < total; k = (k + 1) % len(rest) {
		out[rest[k]]++
		given++
	}
	return out
}
