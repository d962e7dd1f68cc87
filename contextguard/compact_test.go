package contextguard

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// recorder is a Summarizer that records its request and answers with reply.
type recorder struct {
	reply     string
	err       error
	req       agent.LLMContext
	maxTokens int
	calls     int
}

func (r *recorder) summarize(ctx context.Context, req agent.LLMContext, maxTokens int) (string, error) {
	r.req, r.maxTokens = req, maxTokens
	r.calls++
	return r.reply, r.err
}

func (r *recorder) prompt() string { return r.req.Messages[0].TextContent() }

// longSession is turns of: a prompt, a read call, its result, an answer; the
// first result ends in an error, each turn measures about 3,000 tokens.
func longSession(turns int) []agent.Message {
	var msgs []agent.Message
	for i := range turns {
		at := t0.Add(time.Duration(i) * time.Hour)
		id := fmt.Sprint("call-", i)
		result := boring(4_000) + fmt.Sprintf("\nturn %d output ends here\n", i)
		if i == 0 {
			result = "HEAD-OF-FIRST-RESULT\n" + boring(20_000) + "\nMIDDLE-OF-FIRST-RESULT\n" + boring(20_000) + "\npanic: first result failed at /src/a.go:12\n"
		}
		msgs = append(msgs,
			userAt(fmt.Sprintf("turn %d: please read /src/file%d.go and fix the bug on port 8080", i, i), at),
			assistantCall(id, "read", map[string]any{"path": fmt.Sprintf("/src/file%d.go", i)}),
			resultFor(id, "read", result),
			assistantText(fmt.Sprintf("turn %d: fixed it, commit 3f2a9c%d", i, i)),
		)
	}
	return msgs
}

func TestCompactSummarisesTheOlderPartAndKeepsTheTail(t *testing.T) {
	msgs := longSession(30)
	stored := deepCopy(msgs)
	r := &recorder{reply: "## Goal\nfix the bugs\n"}
	compactedAt := t0.Add(100 * time.Hour)
	res, err := Compact(context.Background(), msgs, CompactOptions{
		Summarize: r.summarize, Window: 200_000, Instructions: "focus on the ports",
		Now: func() time.Time { return compactedAt }, Estimator: NewEstimator(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(msgs, stored) {
		t.Fatal("Compact modified its input")
	}
	if text, ok := SummaryText(res.Messages[0]); !ok || text != "## Goal\nfix the bugs" || !res.Messages[0].Timestamp.Equal(compactedAt) {
		t.Fatalf("first message is not the summary: %+v", res.Messages[0])
	}
	if !reflect.DeepEqual(res.Messages[1:], msgs[res.FirstKept:]) {
		t.Fatal("the tail is not kept verbatim")
	}
	if res.FirstKept == 0 || res.Summarized != res.FirstKept || msgs[res.FirstKept].Role == agent.RoleToolResult {
		t.Fatalf("bad cut: %+v", res)
	}
	tail := NewEstimator().Messages(msgs[res.FirstKept:])
	if tail < DefaultKeepTailTokens || tail > DefaultKeepTailTokens+4_000 {
		t.Fatalf("kept tail of %d tokens, want about %d", tail, DefaultKeepTailTokens)
	}
	if res.TokensAfter >= res.TokensBefore || res.TokensBefore != EstimateContext(agent.LLMContext{Messages: msgs}) {
		t.Fatalf("tokens %d → %d", res.TokensBefore, res.TokensAfter)
	}

	prompt := r.prompt()
	for _, want := range []string{
		"[User]: turn 0: please read /src/file0.go and fix the bug on port 8080",
		`[Assistant tool call]: read {"path":"/src/file0.go"}`,
		"[Tool result read]: HEAD-OF-FIRST-RESULT",
		"panic: first result failed at /src/a.go:12", // the capped result keeps its tail
		"[Assistant]: turn 0: fixed it, commit 3f2a9c0",
		"## Critical context", "keep every identifier exactly as written",
		"focus on the ports",
	} {
		if !strings.Contains(strings.ToLower(prompt), strings.ToLower(want)) {
			t.Errorf("the summary request lacks %q", want)
		}
	}
	if strings.Contains(prompt, "MIDDLE-OF-FIRST-RESULT") {
		t.Error("a tool result was sent whole to the summariser")
	}
	if strings.Contains(prompt, fmt.Sprintf("turn %d:", 29)) {
		t.Error("the kept tail was sent to the summariser")
	}
	if r.req.SystemPrompt != summarizerSystemPrompt || r.maxTokens != DefaultSummaryReserveTokens {
		t.Errorf("system prompt or max tokens wrong: %d", r.maxTokens)
	}
}

func TestCompactDropsResentPrompts(t *testing.T) {
	msgs := longSession(12)
	resent := msgs[0]
	resent.Timestamp = resent.Timestamp.Add(5 * time.Second)
	msgs = append(msgs[:1], append([]agent.Message{resent}, msgs[1:]...)...)
	r := &recorder{reply: "summary"}
	res, err := Compact(context.Background(), msgs, CompactOptions{Summarize: r.summarize})
	if err != nil {
		t.Fatal(err)
	}
	if res.Deduplicated != 1 || strings.Count(r.prompt(), "[User]: turn 0:") != 1 {
		t.Fatalf("deduplicated %d; the prompt holds it %d times", res.Deduplicated, strings.Count(r.prompt(), "[User]: turn 0:"))
	}
}

func TestCompactFitsTheSummarizersWindow(t *testing.T) {
	msgs := longSession(40)
	r := &recorder{reply: "summary"}
	const window = 16_000
	res, err := Compact(context.Background(), msgs, CompactOptions{Summarize: r.summarize, Window: 200_000, SummaryWindow: window})
	if err != nil {
		t.Fatal(err)
	}
	if res.Omitted == 0 || !strings.Contains(r.prompt(), fmt.Sprintf("[%d earlier messages were left out", res.Omitted)) {
		t.Fatalf("nothing left out (%d)", res.Omitted)
	}
	b := Budget{Window: window, Reserve: DefaultSummaryReserveTokens}
	if got := EstimateContext(r.req); got > b.PromptTokens() {
		t.Fatalf("the summary request measures %d tokens, budget %d", got, b.PromptTokens())
	}
	if r.maxTokens != window-b.PromptTokens() {
		t.Fatalf("max tokens %d", r.maxTokens)
	}
	// the newest of the summarised messages are the ones kept
	last := msgs[res.FirstKept-1]
	if !strings.Contains(r.prompt(), last.TextContent()) {
		t.Fatal("the newest summarised message was left out")
	}
}

func TestCompactFailures(t *testing.T) {
	boom := errors.New("503 overloaded")
	short := []agent.Message{userAt("hello there", t0), assistantText("hi, what shall we do?")}
	summaryOnly := append([]agent.Message{SummaryMessage("earlier", t0)}, short...)
	shortTokens := EstimateMessage(short[0]) + EstimateMessage(short[1]) // the tail takes exactly these
	cases := []struct {
		name   string
		msgs   []agent.Message
		reply  string
		err    error
		keep   int
		want   CompactFailure
		wantIs error
	}{
		{"everything fits in the tail", short, "s", nil, 0, FailureNothingToCompact, nil},
		{"only a summary before the tail", summaryOnly, "s", nil, shortTokens, FailureNothingToCompact, nil},
		{"the summariser fails", longSession(12), "", boom, 0, FailureSummarizer, boom},
		{"an empty summary", longSession(12), " \n ", nil, 0, FailureEmptySummary, nil},
		{"a summary bigger than what it replaces", longSession(12), boring(400_000), nil, 0, FailureNoShrink, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{reply: c.reply, err: c.err}
			_, err := Compact(context.Background(), c.msgs, CompactOptions{Summarize: r.summarize, KeepTailTokens: c.keep})
			var ce *CompactError
			if !errors.As(err, &ce) || ce.Failure != c.want {
				t.Fatalf("error %v, want %s", err, c.want)
			}
			if c.wantIs != nil && !errors.Is(err, c.wantIs) {
				t.Fatalf("%v does not wrap %v", err, c.wantIs)
			}
			if c.want == FailureNothingToCompact && r.calls != 0 {
				t.Fatal("the summariser was asked for nothing")
			}
		})
	}
}

func TestCompactCancelledIsNotAFailure(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	summarize := func(ctx context.Context, _ agent.LLMContext, _ int) (string, error) {
		cancel()
		return "", ctx.Err()
	}
	_, err := Compact(ctx, longSession(12), CompactOptions{Summarize: summarize})
	var ce *CompactError
	if !errors.Is(err, context.Canceled) || errors.As(err, &ce) {
		t.Fatalf("error %v, want the cancellation as it is", err)
	}
}

func TestCompactMergesAnEarlierSummary(t *testing.T) {
	msgs := append([]agent.Message{SummaryMessage("## Goal\nearlier goal", t0)}, longSession(12)...)
	r := &recorder{reply: "merged"}
	if _, err := Compact(context.Background(), msgs, CompactOptions{Summarize: r.summarize}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.prompt(), "[Earlier summary]:\n## Goal\nearlier goal") {
		t.Fatal("the earlier summary is not in the request")
	}
}

func TestCompactKeepsLessOnASmallWindow(t *testing.T) {
	msgs := longSession(12)
	r := &recorder{reply: "s"}
	res, err := Compact(context.Background(), msgs, CompactOptions{Summarize: r.summarize, Window: 16_000})
	if err != nil {
		t.Fatal(err)
	}
	if tail := EstimateContext(agent.LLMContext{Messages: res.Messages[1:]}); tail > 4_000+3_500 {
		t.Fatalf("kept %d tokens on a 16k window", tail)
	}
}
