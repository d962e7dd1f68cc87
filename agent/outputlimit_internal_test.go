package agent

import (
	"reflect"
	"testing"
)

func TestKeepCalls(t *testing.T) {
	text := Text("writing")
	done := ToolCall("c1", "write", map[string]any{"path": "a"})
	cut := ToolCall("c2", "write", map[string]any{"path": "b"})
	cut.Incomplete = true
	whole := cut
	whole.Incomplete = false
	msg := func(reason StopReason, content ...Content) Message {
		return Message{Role: RoleAssistant, StopReason: reason, Content: content}
	}
	tests := []struct {
		name          string
		in            Message
		continuations int
		want          Message
		dropped       []Content
		goOn          bool
	}{
		{"a toolUse batch is kept whole", msg(StopReasonToolUse, text, done, cut), 0,
			msg(StopReasonToolUse, text, done, whole), nil, false},
		{"length: the complete calls run, the cut one is dropped", msg(StopReasonLength, text, done, cut), 0,
			msg(StopReasonLength, text, done), []Content{cut}, true},
		{"length after complete calls only", msg(StopReasonLength, done), 2,
			msg(StopReasonLength, done), nil, true},
		{"length with only a cut call ends", msg(StopReasonLength, text, cut), 0,
			msg(StopReasonLength, text), nil, false},
		{"length past the budget ends", msg(StopReasonLength, text, done, cut), MaxOutputLimitContinuations,
			msg(StopReasonLength, text), nil, false},
		{"stop keeps no call", msg(StopReasonStop, text, done), 0, msg(StopReasonStop, text), nil, false},
		{"error keeps no call", msg(StopReasonError, done), 0, msg(StopReasonError), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in.Clone()
			got, dropped, goOn := keepCalls(tt.in, tt.continuations)
			if !reflect.DeepEqual(in, tt.in) {
				t.Errorf("keepCalls changed its input")
			}
			if !reflect.DeepEqual(got.Content, tt.want.Content) && (len(got.Content) != 0 || len(tt.want.Content) != 0) {
				t.Errorf("kept %+v, want %+v", got.Content, tt.want.Content)
			}
			if !reflect.DeepEqual(dropped, tt.dropped) || goOn != tt.goOn {
				t.Errorf("dropped %+v goOn %v, want %+v %v", dropped, goOn, tt.dropped, tt.goOn)
			}
		})
	}
}
