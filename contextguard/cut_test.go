package contextguard

import (
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestFindCut(t *testing.T) {
	// Each message of these sessions measures about 600 tokens (2,000-byte
	// text, 1,000-byte results); the small prompt and calls about 30.
	text, result := boring(2_000), boring(1_000)
	chat := []agent.Message{userAt(text, t0), assistantText(text), userAt(text, t0), assistantText(text), userAt(text, t0), assistantText(text)}
	tools := []agent.Message{
		userAt("fix it", t0),            // 0
		assistantCall("a", "read", nil), // 1
		resultFor("a", "read", result),  // 2
		assistantCall("b", "read", nil), // 3
		resultFor("b", "read", result),  // 4
		resultFor("b2", "read", result), // 5: a second result of the same call
		assistantCall("c", "bash", nil), // 6
		resultFor("c", "bash", result),  // 7
		assistantText("done"),           // 8
	}
	cases := []struct {
		name string
		msgs []agent.Message
		keep int
		want int
	}{
		{"empty", nil, 1_000, 0},
		{"everything fits in the tail", chat, 100_000, 0},
		{"keep about two messages", chat, 1_000, 4},
		{"keep just the last", chat, 1, 5},
		{"never after the last message", chat, 0, 6},
		{"moves back past one result to its call", tools, 40, 6},
		{"moves back past two results to their call", tools, 700, 3},
		{"lands on a call: kept with its results", tools, 660, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := FindCut(c.msgs, c.keep, NewEstimator())
			if got != c.want {
				t.Fatalf("cut at %d, want %d", got, c.want)
			}
			if got < len(c.msgs) && c.msgs[got].Role == agent.RoleToolResult {
				t.Fatal("the tail starts with a tool result")
			}
		})
	}
}

func TestKeepTailTokens(t *testing.T) {
	cases := []struct{ keep, window, want int }{
		{0, 0, 20_000},
		{0, 200_000, 20_000},
		{0, 8_192, 2_048},
		{5_000, 200_000, 5_000},
		{50_000, 100_000, 25_000},
	}
	for _, c := range cases {
		if got := keepTailTokens(c.keep, c.window); got != c.want {
			t.Errorf("keepTailTokens(%d, %d) = %d, want %d", c.keep, c.window, got, c.want)
		}
	}
}

func TestForcedCut(t *testing.T) {
	big := boring(2_000) // about 600 tokens
	chat := []agent.Message{userAt(big, t0), assistantText(big), userAt(big, t0), assistantText(big), userAt(big, t0), assistantText(big)}
	small := []agent.Message{
		userAt("read a.go", t0),         // 0
		assistantCall("a", "read", nil), // 1
		resultFor("a", "read", "ok"),    // 2
		assistantText("read it"),        // 3
		userAt("now fix it", t0),        // 4: the last turn
		assistantCall("b", "edit", nil), // 5
		resultFor("b", "edit", "ok"),    // 6
		assistantText("fixed"),          // 7
	}
	oneTurn := small[:4]
	steered := []agent.Message{
		userAt("fix it", t0),            // 0
		assistantCall("a", "read", nil), // 1
		resultFor("a", "read", "ok"),    // 2
		userAt("use the tests", t0),     // 3: steering, the last user message
		assistantText("done"),           // 4
	}
	summarised := append([]agent.Message{SummaryMessage("earlier", t0)}, oneTurn...)
	summaryThenTwo := append([]agent.Message{SummaryMessage("earlier", t0)}, small...)
	cases := []struct {
		name    string
		msgs    []agent.Message
		tailCut int
		want    int
	}{
		{"empty", nil, 0, 0},
		{"all in the tail: the last turn is kept", small, 0, 4},
		{"one turn: summarised whole", oneTurn, 0, 4},
		{"a steering message opens the last turn, after the tool's result", steered, 0, 3},
		{"only a summary before the last turn: summarised whole", summarised, 0, 5},
		{"a summary and two turns: the last is kept", summaryThenTwo, 0, 5},
		{"the tail cut inside the last turn keeps less", small, 5, 5},
		{"enough before the tail cut: it stands", chat, 3, 3},
		{"too little before the tail cut: the last turn", chat, 1, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ForcedCut(c.msgs, c.tailCut, NewEstimator())
			if got != c.want {
				t.Fatalf("cut at %d, want %d", got, c.want)
			}
			if got < len(c.msgs) && c.msgs[got].Role == agent.RoleToolResult {
				t.Fatal("the tail starts with a tool result")
			}
		})
	}
}
