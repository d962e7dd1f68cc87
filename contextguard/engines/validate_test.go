package engines

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestCheckAssemble(t *testing.T) {
	msgs := transcript()
	toolLoop := msgs[:3] // ends with a tool result
	cases := []struct {
		name string
		req  []agent.Message
		res  []agent.Message
		want string // "" when the result keeps the contract
	}{
		{"passed through", msgs, msgs, ""},
		{"trimmed, prompt kept", msgs, msgs[3:], ""},
		{"a tool loop", toolLoop, toolLoop, ""},
		{"an empty request may get anything", nil, nil, ""},
		{"nothing sent", msgs, nil, "no messages"},
		{"prompt dropped", msgs, msgs[:4], "ending with an assistant message"},
		{"tool result dropped", toolLoop, toolLoop[:2], "ending with an assistant message"},
		{"a message without role", msgs, []agent.Message{{Content: []agent.Content{agent.Text("x")}}, user("hi")}, `role ""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkErr(t, checkAssemble(AssembleRequest{Messages: tc.req}, AssembleResult{Messages: tc.res}), tc.want)
		})
	}
	// A request that ends with an assistant message (a continued answer)
	// may be assembled ending with one.
	cont := append(transcript(), assistant(agent.Text("partial")))
	checkErr(t, checkAssemble(AssembleRequest{Messages: cont}, AssembleResult{Messages: cont}), "")
}

func TestCheckCompact(t *testing.T) {
	cases := []struct {
		name string
		res  CompactResult
		want string
	}{
		{"compacted", CompactResult{Compacted: true, Messages: []agent.Message{user("summary")}}, ""},
		{"nothing to compact", CompactResult{Reason: "too short"}, ""},
		{"delegated", CompactResult{Delegate: true}, ""},
		{"delegated, with noise", CompactResult{Delegate: true, Compacted: true}, ""},
		{"compacted to nothing", CompactResult{Compacted: true}, "no messages"},
		{"a message without role", CompactResult{Compacted: true, Messages: []agent.Message{{Role: "system"}}}, `role "system"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkErr(t, checkCompact(CompactRequest{Messages: transcript()}, tc.res), tc.want)
		})
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("err = %v, want none", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("err = %v, want one saying %q", err, want)
	}
}
