package runner

import (
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
)

// TestRetryAnnotationsInPiShapes: the retry annotations encode with pi's
// fields (auto_retry_start {attempt, maxAttempts, delayMs, errorMessage},
// auto_retry_end {success, attempt, finalError?}) and steer's after them.
func TestRetryAnnotationsInPiShapes(t *testing.T) {
	cases := []struct {
		kind string
		data any
		want string
	}{
		{AnnotationRetryStart, RetryStartInfo{Attempt: 1, MaxAttempts: 2, DelayMs: 3000, ErrorMessage: "529 overloaded_error: Overloaded",
			Reason: "overloaded", Profile: "anthropic:main", Model: "anthropic/claude-sonnet-4-5", DelaySource: "retry-after"},
			`{"type":"auto_retry_start","sessionId":"s1","attempt":1,"maxAttempts":2,"delayMs":3000,"errorMessage":"529 overloaded_error: Overloaded",` +
				`"reason":"overloaded","profile":"anthropic:main","model":"anthropic/claude-sonnet-4-5","delaySource":"retry-after"}`},
		{AnnotationRetryStart, RetryStartInfo{Attempt: 1, MaxAttempts: 1, ErrorMessage: "stalled", Reason: "timeout", Profile: "p:a", Model: "p/big"},
			`{"type":"auto_retry_start","sessionId":"s1","attempt":1,"maxAttempts":1,"delayMs":0,"errorMessage":"stalled","reason":"timeout","profile":"p:a","model":"p/big"}`},
		{AnnotationRetryEnd, RetryEndInfo{Success: true, Attempt: 1},
			`{"type":"auto_retry_end","sessionId":"s1","success":true,"attempt":1}`},
		{AnnotationRetryEnd, RetryEndInfo{Attempt: 2, FinalError: "529 overloaded_error: Overloaded"},
			`{"type":"auto_retry_end","sessionId":"s1","success":false,"attempt":2,"finalError":"529 overloaded_error: Overloaded"}`},
	}
	for _, c := range cases {
		got, err := eventjson.Encode(agent.Annotation{Kind: c.kind, Data: c.data}, "s1")
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.kind, got, err, c.want)
		}
	}
}
