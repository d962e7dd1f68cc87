package llmtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Conn says how the StreamFn under test reaches the suite's test server.
type Conn struct {
	// URL is the server's base URL; "" means the provider's default.
	URL string
	// APIKey is the configured key; "" configures none.
	APIKey string
	// IdleTimeout is the watchdog's window; 0 means the provider's default.
	IdleTimeout time.Duration
	// HTTPClient makes the requests; nil means the provider's default.
	HTTPClient *http.Client
}

// Wire is how an API streams a text answer, as raw server-sent events: Head
// opens the response, Text(s) is one event streaming s as a text delta, and
// Tail ends the response with a normal stop.
type Wire struct {
	Head string
	Text func(s string) string
	Tail string
}

// Reply is a whole answer that streams parts as one text delta each.
func (w Wire) Reply(parts ...string) string {
	var b strings.Builder
	b.WriteString(w.Head)
	for _, p := range parts {
		b.WriteString(w.Text(p))
	}
	b.WriteString(w.Tail)
	return b.String()
}

// ContractHarness plugs a StreamFn into RunContract. An HTTP provider
// gives Open, Wire and ErrorJSON, and the suite plays each Behaviour with a
// test server; a provider without a server (the scripted one) gives Play.
type ContractHarness struct {
	// Model is passed to every call. Its Provider is the name the provider
	// gives the server in messages.
	Model agent.Model
	// Open returns the StreamFn under test connected as c says, or the
	// error the provider's constructor gives for c.
	Open func(c Conn) (agent.StreamFn, error)
	// Wire is how the provider's API streams text.
	Wire Wire
	// ErrorJSON is the API's error body with the given type, code and
	// message; an empty code is left out.
	ErrorJSON func(typ, code, message string) string
	// NotedErrors allows an errorMessage that goes on after the error's own
	// words with a note ("<error> — <note>"): the runner's attempt loop
	// adds until when a profile is locked out and how to clear it. A
	// provider leaves it false: its errorMessage is the error's words alone.
	NotedErrors bool
	// Play, when set, returns the StreamFn under test set up so that every
	// call behaves as b says, or nil when the provider has no such failure
	// (the case is then skipped, saying so). It replaces Open, Wire and
	// ErrorJSON in RunContract.
	Play func(t testing.TB, b Behaviour) agent.StreamFn
}

// Behaviour is what RunContract has the other end of the provider do.
type Behaviour int

// The behaviours of RunContract's cases.
const (
	// Answer streams ReplyParts, as one text delta each over HTTP, then
	// stops.
	Answer Behaviour = iota
	// AnswerInPieces is Answer served in small irregular pieces.
	AnswerInPieces
	// FailStatus fails before any content with a 503 whose error type is
	// overloaded_error.
	FailStatus
	// Refuse refuses the connection.
	Refuse
	// CutShort streams the text "Hel", then ends without a stop.
	CutShort
	// Stall streams the text "Hel", then sends nothing until the call is
	// cancelled.
	Stall
)

var behaviourNames = [...]string{"Answer", "AnswerInPieces", "FailStatus", "Refuse", "CutShort", "Stall"}

// String is the behaviour's name.
func (b Behaviour) String() string {
	if b < 0 || int(b) >= len(behaviourNames) {
		return fmt.Sprintf("Behaviour(%d)", int(b))
	}
	return behaviourNames[b]
}

// ReplyParts is the answer of Answer, one part per text delta.
func ReplyParts() []string { return slices.Clone(replyParts) }

// play returns the StreamFn under test behaving as b says: h.Play's, or
// the one Open connects to a test server that does it.
func (h ContractHarness) play(t *testing.T, b Behaviour) agent.StreamFn {
	t.Helper()
	if h.Play != nil {
		fn := h.Play(t, b)
		if fn == nil {
			t.Skipf("the provider cannot play %s", b)
		}
		return fn
	}
	var url string
	switch b {
	case Answer, AnswerInPieces:
		url = SSEServer(t, []byte(h.Wire.Reply(replyParts...)), b == AnswerInPieces).URL
	case FailStatus:
		url = StatusServer(t, http.StatusServiceUnavailable, h.ErrorJSON("overloaded_error", "", "Try again later")).URL
	case Refuse:
		refused := httptest.NewServer(http.NotFoundHandler())
		refused.Close()
		url = refused.URL
	case CutShort:
		url = SSEServer(t, []byte(h.Wire.Head+h.Wire.Text("Hel")), false).URL
	case Stall:
		srv, _ := StallingServer(t, h.Wire.Head+h.Wire.Text("Hel"), false)
		url = srv.URL
	default:
		t.Fatalf("unknown behaviour %s", b)
	}
	return h.stream(t, Conn{URL: url})
}

// stream returns the StreamFn connected as c says, failing t if it cannot.
func (h ContractHarness) stream(t testing.TB, c Conn) agent.StreamFn {
	t.Helper()
	fn, err := h.Open(c)
	if err != nil {
		t.Fatalf("Open(%+v): %v", c, err)
	}
	return fn
}

// ask streams Prompt from the provider connected as c says and drains it.
func (h ContractHarness) ask(t testing.TB, c Conn) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	return Drain(t, h.stream(t, c)(context.Background(), h.Model, Prompt, agent.StreamOptions{}))
}

// HTTPHarness plugs an HTTP provider into RunHTTP: the contract harness plus
// the API's own error bodies and credentials.
type HTTPHarness struct {
	ContractHarness
	// Errors are the API's error responses, one case each; the suite adds
	// the API-neutral ones (an HTML 502, an empty 503, a huge 500).
	Errors []HTTPErrorCase
	// MidStream is an error event the API sends in a started stream.
	MidStream MidStreamError
	// BadEvent is an event whose JSON is cut off; it contains "oops".
	BadEvent string
	// KeepAlive is the API's own keep-alive event, if it has one (Anthropic's
	// ping); SSE comments are sent to every provider.
	KeepAlive string
	// Env are the SDK's environment variables (key, token, base URL), set
	// during the credentials cases; none of their values may reach the
	// server.
	Env map[string]string
	// Credentials returns the key a request authenticates with, "" when it
	// carries none.
	Credentials func(r *http.Request) string
	// Classify is the runtime's classifier (failover.ClassifyError's code),
	// given by the provider's test so that this suite, which providers
	// import, reaches nothing above them: the cause cases check that it
	// reads what the provider wrote as the right reason.
	Classify func(e *agent.ProviderError) string
}

// HTTPErrorCase is a failure response and the error it must become.
type HTTPErrorCase struct {
	Name   string
	Status int
	Body   string
	// Type, Code and Message are the provider's, as the error must keep them.
	Type, Code, Message string
	// Excerpt must appear in the error's body; "" means the body's first
	// 100 bytes.
	Excerpt string
}

// MidStreamError is an error event sent after the text "Hel", and the
// stream error it must become.
type MidStreamError struct {
	Event               string
	Type, Code, Message string
	// Excerpt must appear in the error's body.
	Excerpt string
}
