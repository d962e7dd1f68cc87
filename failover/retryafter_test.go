package failover

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"
)

// hintCorpus is testdata/retry_hints.json: header values collected from
// provider docs and issues, each with its source.
type hintCorpus struct {
	Durations []struct {
		Header, Value, Want, Source string
	}
	Responses []struct {
		Name, Source string
		Status       int
		Now          time.Time
		Header       map[string]string
		Want         string
		WantSource   string
	}
}

func loadHintCorpus(t *testing.T) hintCorpus {
	t.Helper()
	data, err := os.ReadFile("testdata/retry_hints.json")
	if err != nil {
		t.Fatal(err)
	}
	var c hintCorpus
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// wantDuration parses a corpus duration; "" is no hint.
func wantDuration(t *testing.T, s string) time.Duration {
	t.Helper()
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseResetDurationRealValues(t *testing.T) {
	for _, c := range loadHintCorpus(t).Durations {
		t.Run(c.Header+"="+c.Value, func(t *testing.T) {
			got, ok := ParseResetDuration(c.Value)
			if want := wantDuration(t, c.Want); got != want || ok != (want > 0) {
				t.Fatalf("ParseResetDuration(%q) = %v, %v; want %v (source: %s)", c.Value, got, ok, want, c.Source)
			}
		})
	}
}

func TestRetryHintRealResponses(t *testing.T) {
	for _, c := range loadHintCorpus(t).Responses {
		t.Run(c.Name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range c.Header {
				h.Add(k, v) // canonical keys, as a response's
			}
			got, ok := RetryHint(c.Status, h, c.Now)
			want := Hint{After: wantDuration(t, c.Want), Source: c.WantSource}
			if got != want || ok != (want.After > 0) {
				t.Fatalf("RetryHint = %+v, %v; want %+v (source: %s)", got, ok, want, c.Source)
			}
		})
	}
}

func TestRetryHintRules(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		status int
		header map[string]string
		want   Hint
	}{
		{"retry-after-ms first", 429, map[string]string{"Retry-After-Ms": "1500", "Retry-After": "2"}, Hint{1500 * time.Millisecond, SourceRetryAfterMS}},
		{"529 with Retry-After", 529, map[string]string{"Retry-After": "30"}, Hint{30 * time.Second, SourceRetryAfter}},
		{"fractional seconds", 429, map[string]string{"Retry-After": "12.5"}, Hint{12500 * time.Millisecond, SourceRetryAfter}},
		{"capped at an hour", 429, map[string]string{"Retry-After": "86400"}, Hint{MaxRetryHint, SourceRetryAfter}},
		{"absurd value capped", 429, map[string]string{"Retry-After": "1e30"}, Hint{MaxRetryHint, SourceRetryAfter}},
		{"HTTP date against Date", 503, map[string]string{"Retry-After": "Thu, 01 Jan 2026 12:05:00 GMT", "Date": "Thu, 01 Jan 2026 12:04:00 GMT"}, Hint{time.Minute, SourceRetryAfter}},
		{"HTTP date in the past", 503, map[string]string{"Retry-After": "Thu, 01 Jan 2026 11:00:00 GMT"}, Hint{}},
		{"garbage Retry-After falls through to resets", 429, map[string]string{"Retry-After": "soon", "X-Ratelimit-Reset-Tokens": "20ms"}, Hint{20 * time.Millisecond, SourceResetTokens}},
		{"zero Retry-After", 429, map[string]string{"Retry-After": "0"}, Hint{}},
		{"resets ignored on a 503", 503, map[string]string{"X-Ratelimit-Reset-Tokens": "6m0s"}, Hint{}},
		{"not a hint status", 500, map[string]string{"Retry-After": "5"}, Hint{}},
		{"no headers", 429, nil, Hint{}},
		{"the empty bucket wins over a later full one", 429, map[string]string{
			"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "1s",
			"X-Ratelimit-Remaining-Tokens": "5000", "X-Ratelimit-Reset-Tokens": "6m0s"}, Hint{time.Second, SourceResetRequests}},
		{"both empty: the later reset", 429, map[string]string{
			"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "1s",
			"X-Ratelimit-Remaining-Tokens": "0", "X-Ratelimit-Reset-Tokens": "7.66s"}, Hint{7660 * time.Millisecond, SourceResetTokens}},
		{"none said empty: the latest reset", 429, map[string]string{
			"X-Ratelimit-Reset-Requests": "2m59.56s", "X-Ratelimit-Reset-Tokens": "7.66s"}, Hint{179560 * time.Millisecond, SourceResetRequests}},
		{"anthropic output tokens, against now", 429, map[string]string{
			"Anthropic-Ratelimit-Output-Tokens-Remaining": "0", "Anthropic-Ratelimit-Output-Tokens-Reset": "2026-01-01T12:00:45Z"}, Hint{45 * time.Second, SourceAnthropicOutput}},
		{"anthropic reset with an offset", 429, map[string]string{
			"Anthropic-Ratelimit-Input-Tokens-Reset": "2026-01-01T07:01:00-05:00"}, Hint{time.Minute, SourceAnthropicInput}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range c.header {
				h.Set(k, v)
			}
			got, ok := RetryHint(c.status, h, now)
			if got != c.want || ok != (c.want.After > 0) {
				t.Fatalf("RetryHint = %+v, %v; want %+v", got, ok, c.want)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	base := time.Date(1999, 12, 31, 23, 59, 0, 0, time.UTC)
	cases := []struct {
		value string
		want  time.Duration
	}{
		{"120", 2 * time.Minute},
		{" 7 ", 7 * time.Second},
		{"Fri, 31 Dec 1999 23:59:59 GMT", 59 * time.Second},
		{"Friday, 31-Dec-99 23:59:59 GMT", 59 * time.Second}, // RFC 850, obsolete but allowed
		{"Fri Dec 31 23:59:59 1999", 59 * time.Second},       // asctime
		{"-5", 0},
		{"", 0},
		{"in a minute", 0},
	}
	for _, c := range cases {
		got, ok := ParseRetryAfter(c.value, base)
		if got != c.want || ok != (c.want > 0) {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v", c.value, got, ok, c.want)
		}
	}
}
