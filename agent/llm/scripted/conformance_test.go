package scripted

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// contractSteps are the scenario steps that play RunContract's behaviours;
// one has no step: the scripted provider has no connection to refuse.
var contractSteps = map[llmtest.Behaviour]Step{
	llmtest.Answer:         {Text: strings.Join(llmtest.ReplyParts(), "")},
	llmtest.AnswerInPieces: {Text: strings.Join(llmtest.ReplyParts(), ""), Pace: 1000},
	llmtest.FailStatus:     {Fault: FaultHTTP, Error: &ErrorSpec{Status: 503, Type: "overloaded_error", Message: "Try again later"}},
	llmtest.CutShort:       {Text: "Hel", Fault: FaultStream},
	// An hour of silence: only the cancel can end it within the test.
	llmtest.Stall: {Text: "Hel", Fault: FaultHang, IdleTimeoutMS: int(time.Hour / time.Millisecond)},
}

// TestContract holds the scripted provider to agent.StreamFn's contract,
// as the HTTP providers are: every call of one provider plays the step.
func TestContract(t *testing.T) {
	llmtest.RunContract(t, llmtest.ContractHarness{
		Model: agent.Model{Provider: ProviderName, ID: "echo", API: API},
		Play: func(t testing.TB, b llmtest.Behaviour) agent.StreamFn {
			step, ok := contractSteps[b]
			if !ok {
				return nil
			}
			step.Always = true
			return New(Options{Scenario: &Scenario{Name: "contract", Steps: []Step{step}}, Now: llmtest.Clock}).Stream
		},
	})
}
