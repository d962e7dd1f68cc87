package failover

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
)

// corpusCase is one real provider error, with where it was seen and the
// reason SPEC §5.1 gives it.
type corpusCase struct {
	Provider string `json:"provider"`
	Status   int    `json:"status"`
	Body     string `json:"body"`
	Want     string `json:"want"`
	Source   string `json:"source"`
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	data, err := os.ReadFile("testdata/classify_corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestClassifyCorpus(t *testing.T) {
	cases := loadCorpus(t)
	perProvider := map[string]int{}
	right := 0
	for i, c := range cases {
		want, ok := ParseReason(c.Want)
		if !ok {
			t.Fatalf("case %d (%s): unknown reason %q", i, c.Source, c.Want)
		}
		if c.Source == "" {
			t.Errorf("case %d has no source", i)
		}
		perProvider[c.Provider]++
		if got := Classify(c.Status, c.Body); got != want {
			t.Errorf("case %d %s (%s): Classify(%d, %.90q) = %v, want %v",
				i, c.Provider, c.Source, c.Status, c.Body, got, want)
			continue
		}
		right++
	}
	var names []string
	for p, n := range perProvider {
		names = append(names, p+"="+itoa(n))
	}
	sort.Strings(names)
	t.Logf("corpus: %d/%d right; %s", right, len(cases), strings.Join(names, " "))
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestClassifyRules pins the SPEC §5.1 rules that the corpus does not
// spell out one by one.
func TestClassifyRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		text   string
		want   Reason
	}{
		{"nothing", 0, "", ReasonUnknown},
		{"bare 400", 400, "", ReasonUnknown},
		{"400 no body at the head", 0, "400 (no body)", ReasonUnknown},
		{"400 only its name", 400, "Bad Request", ReasonUnknown},
		{"400 with a body", 400, `{"error":{"message":"Invalid value for 'temperature'"}}`, ReasonFormat},
		{"bare 429", 429, "", ReasonRateLimit},
		{"bare 503", 503, "", ReasonOverloaded},
		{"bare 504", 504, "", ReasonTimeout},
		{"bare 408", 408, "", ReasonTimeout},
		{"bare 413", 413, "", ReasonContextOverflow},
		{"bare 529", 529, "", ReasonOverloaded},
		{"bare 500", 500, "", ReasonServerError},
		{"bare 502", 502, "", ReasonServerError},
		{"bare 404", 404, "", ReasonModelNotFound},
		{"bare 402", 402, "", ReasonBilling},
		{"bare 401", 401, "", ReasonAuth},
		{"bare 418", 418, "", ReasonUnknown},
		{"429 billing text", 429, "insufficient_quota", ReasonBilling},
		{"429 overloaded text stays a rate limit", 429, "The service may be temporarily overloaded", ReasonRateLimit},
		{"402 with a retry window", 402, "Daily limit reached, resets tomorrow.", ReasonRateLimit},
		{"402 rate limit at the head", 0, "HTTP 402 Payment Required: rate limit exceeded", ReasonRateLimit},
		{"402 plain", 402, "Payment Required", ReasonBilling},
		{"401 revoked key", 401, "This API key has been revoked", ReasonAuthPermanent},
		{"403 account deactivated", 403, "Your account has been deactivated", ReasonAuthPermanent},
		{"401 server words stay auth", 401, "internal server error in auth service", ReasonAuth},
		{"404 session", 404, "session not found", ReasonSessionExpired},
		{"404 plain", 404, "404 page not found", ReasonModelNotFound},
		{"500 context text wins", 500, "Context size has been exceeded.", ReasonContextOverflow},
		{"generic without status", 0, "An error occurred", ReasonNoErrorDetails},
		{"generic with status", 500, "An error occurred", ReasonServerError},
		{"specific but fits nothing", 0, "Your request was rejected as a result of our safety system.", ReasonUnclassified},
		{"409 conflict text", 409, "A conversation with this name already exists.", ReasonUnclassified},
		{"type hint invalid_request_error", 0, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: text content blocks must be non-empty"}}`, ReasonFormat},
		{"type hint api_error", 0, `{"type":"error","error":{"type":"api_error","message":"x"}}`, ReasonServerError},
		{"roles must alternate", 0, "roles must alternate between user and assistant", ReasonFormat},
		{"thinking signature", 400, "Invalid `signature` in `thinking` block", ReasonFormat},
		{"socket hang up", 0, "socket hang up", ReasonTimeout},
		{"connection reset", 0, "read tcp 10.0.0.2:5555->1.2.3.4:443: read: connection reset by peer", ReasonTimeout},
		{"unexpected EOF", 0, "unexpected EOF", ReasonTimeout},
		{"empty response", 0, "The model returned an empty response", ReasonEmptyResponse},
		{"bare 200", 200, "", ReasonEmptyResponse},
		{"case does not matter", 0, "RATE LIMIT EXCEEDED", ReasonRateLimit},
		{"bare status after a wrapper's words", 0, "Request failed with status code 400", ReasonUnknown},
		{"status in brackets", 0, "request failed [503]: try later", ReasonOverloaded},
		{"a number that is no status", 0, "Error 450", ReasonUnclassified},
		{"status after a closed bracket", 0, "gq1 [Error]: 422 status code (no body)", ReasonUnknown},
		{"status after an error's preamble", 0, "Request failed after 3 retries: 429 slow down", ReasonRateLimit},
		{"a status at the very head wins over a later one", 0, "400 wrapper: Error code: 503 - the widget is odd", ReasonFormat},
		{"thought signature", 0, "Function call is missing a thought_signature in functionCall parts.", ReasonFormat},
		{"exception name loose in the text", 0, "botocore.errorfactory.ValidationException: the widget is odd", ReasonFormat},
		{"type names compared without underscores", 0, `{"error":{"code":"BadRequest","message":"the widget is odd"}}`, ReasonFormat},
		{"an SDK's base class says nothing", 0, "openai.APIError: the widget is odd", ReasonUnclassified},
		{"empty answer in other words", 0, "The response was empty", ReasonEmptyResponse},
		{"certificate inside a connection error", 0, "Error communicating with OpenAI: (Caused by SSLError(SSLCertVerificationError('certificate verify failed')))", ReasonTLSCertificate},
	} {
		if got := Classify(c.status, c.text); got != c.want {
			t.Errorf("%s: Classify(%d, %q) = %v, want %v", c.name, c.status, c.text, got, c.want)
		}
	}
}
