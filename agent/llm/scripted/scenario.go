package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/steer-tui/steer/assets"
)

// Scenario scripts the responses of a Provider, one step per request. The
// zero value plays nothing and falls back to the default behaviour. A Scenario
// is a plain value: each Provider keeps its own record of the steps played,
// so one Scenario may be given to several providers.
type Scenario struct {
	// Name is the scenario's name or file, for messages.
	Name string `json:"-"`
	// Description says what the scenario rehearses.
	Description string `json:"description,omitempty"`
	// Then says what requests get once no step is left: ThenDefault (also
	// when empty) or ThenRepeat.
	Then Then `json:"then,omitempty"`
	// Steps are played in order; see the package doc for how a request
	// picks its step.
	Steps []Step `json:"steps"`
}

// Then names what happens after the last step.
type Then string

// The ways a scenario can go on after its last step.
const (
	// ThenDefault answers every later request with the default behaviour.
	ThenDefault Then = "default"
	// ThenRepeat plays the last step of the list again for every later
	// request, whatever its When.
	ThenRepeat Then = "repeat"
)

// Fault names the failure a step ends with.
type Fault string

// The faults a step can play.
const (
	// FaultNone ends the step normally: stop, or toolUse when it has tool calls.
	FaultNone Fault = ""
	// FaultHTTP fails before any content with an HTTP status (Error.Status).
	FaultHTTP Fault = "http"
	// FaultStream streams the step's content, then fails with an error
	// reported inside the stream (like Anthropic's overloaded_error event).
	FaultStream Fault = "stream"
	// FaultHang streams the step's content, then makes no more progress
	// until the request is cancelled or the idle watchdog (Options.IdleTimeout,
	// or the step's IdleTimeoutMS) fails it with a timeout, as a real
	// provider's watchdog would. With KeepAliveMS it keeps sending
	// keep-alives meanwhile, as a stalled server does; they do not count as
	// progress.
	FaultHang Fault = "hang"
	// FaultMalformed streams the step's content, then fails on a chunk that
	// cannot be parsed (Error.Body is the chunk).
	FaultMalformed Fault = "malformed"
	// FaultEmpty ends without any content, as an empty response.
	FaultEmpty Fault = "empty"
	// FaultLength streams the text and half of the first tool call, then
	// stops with stopReason length, as a response cut by the output limit.
	FaultLength Fault = "length"
)

// Step is one scripted response.
type Step struct {
	// When restricts the requests the step answers; nil matches all.
	When *When `json:"when,omitempty"`
	// Always keeps the step: it answers every matching request instead of
	// being used up by the first.
	Always bool `json:"always,omitempty"`
	// Pace overrides the provider's pace (chunks per second) for this step.
	Pace float64 `json:"pace,omitempty"`

	// Thinking and Signature make a thinking block, streamed first.
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	// Text is streamed after the thinking.
	Text string `json:"text,omitempty"`
	// ToolCalls are streamed after the text; the step then stops with toolUse.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Default answers with the default behaviour (after Thinking, if any);
	// it excludes Text, ToolCalls and Fault.
	Default bool `json:"default,omitempty"`

	// Fault ends the step with a failure instead of a normal stop.
	Fault Fault `json:"fault,omitempty"`
	// Error details the failure; every field has a default per fault.
	Error *ErrorSpec `json:"error,omitempty"`
	// IdleTimeoutMS is the idle watchdog's window for this response, in
	// milliseconds, overriding Options.IdleTimeout: a hang (or a pace slower
	// than the window) ends with a timeout error after that much silence.
	IdleTimeoutMS int `json:"idleTimeoutMs,omitempty"`
	// KeepAliveMS makes a hang send a keep-alive (a ping, an SSE comment)
	// every that many milliseconds while it stalls. Keep-alives are not
	// progress: the watchdog fails the response all the same, and its
	// timeout error counts them.
	KeepAliveMS int `json:"keepAliveMs,omitempty"`
	// Usage overrides the estimated token counts of the response.
	Usage *UsageSpec `json:"usage,omitempty"`
}

// When is a step's condition; every field that is set must hold.
type When struct {
	// Profile is a path.Match pattern on the request's auth profile id.
	Profile string `json:"profile,omitempty"`
	// Model is a path.Match pattern on the model id or its provider/id.
	Model string `json:"model,omitempty"`
	// MinContextTokens holds when the request's estimated input tokens
	// (characters / 4 over system prompt, messages and tools) reach it.
	MinContextTokens int `json:"minContextTokens,omitempty"`
}

// ToolCall is a tool call a step makes.
type ToolCall struct {
	// ID defaults to a fresh "call_…" id.
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

// ErrorSpec details a step's failure, as agent.ProviderError fields.
type ErrorSpec struct {
	Status  int    `json:"status,omitempty"`
	Type    string `json:"type,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Body is the raw response body (or, for a malformed fault, the chunk).
	Body string `json:"body,omitempty"`
	// Headers are the response's headers the error carries, such as
	// Retry-After, retry-after-ms, x-ratelimit-reset-tokens or
	// anthropic-ratelimit-requests-reset, so that cooldowns and retries can
	// be rehearsed from what a provider says.
	Headers map[string]string `json:"headers,omitempty"`
}

// UsageSpec sets the token counts a step reports.
type UsageSpec struct {
	Input      int `json:"input,omitempty"`
	Output     int `json:"output,omitempty"`
	CacheRead  int `json:"cacheRead,omitempty"`
	CacheWrite int `json:"cacheWrite,omitempty"`
}

// RehearsalName is how the inspectors label the ledger of a rehearsal of
// nameOrPath (LoadScenario's argument): the scenario's name, or its file's
// name without the extension; "" for none.
func RehearsalName(nameOrPath string) string {
	if nameOrPath == "" {
		return ""
	}
	return strings.TrimSuffix(filepath.Base(nameOrPath), filepath.Ext(nameOrPath))
}

// LoadScenario reads a scenario. A nameOrPath that contains a slash or ends
// in .json is a file; anything else names an embedded scenario
// (assets/scenarios/<name>.json).
func LoadScenario(nameOrPath string) (*Scenario, error) {
	if strings.ContainsAny(nameOrPath, `/\`) || strings.HasSuffix(nameOrPath, ".json") {
		data, err := os.ReadFile(nameOrPath)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", nameOrPath, err)
		}
		return ParseScenario(nameOrPath, data)
	}
	file := nameOrPath + ".json"
	data, err := fs.ReadFile(assets.Scenarios(), file)
	if errors.Is(err, fs.ErrNotExist) || (err != nil && !fs.ValidPath(file)) {
		return nil, fmt.Errorf("unknown scenario %q (built in: %s; or give a file path)",
			nameOrPath, strings.Join(assets.ScenarioNames(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", nameOrPath, err)
	}
	return ParseScenario(path.Join("assets/scenarios", file), data)
}

// ParseScenario decodes and validates a scenario strictly: unknown fields and
// trailing data are errors. Errors start with name and, for JSON errors, the
// line.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sc Scenario
	if err := dec.Decode(&sc); err != nil {
		return nil, jsonError(name, data, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s:%d: unexpected data after the scenario object",
			name, lineAt(data, int(dec.InputOffset())))
	}
	sc.Name = name
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return &sc, nil
}

// Validate reports the first step that cannot be played, naming it by its
// 1-based position.
func (sc *Scenario) Validate() error {
	switch sc.Then {
	case "", ThenDefault, ThenRepeat:
	default:
		return fmt.Errorf("%s: then is %q; want %q or %q", sc.Name, sc.Then, ThenDefault, ThenRepeat)
	}
	for i := range sc.Steps {
		if err := sc.Steps[i].validate(); err != nil {
			return fmt.Errorf("%s: step %d: %w", sc.Name, i+1, err)
		}
	}
	return nil
}

func (s *Step) validate() error {
	hasContent := s.Thinking != "" || s.Text != "" || len(s.ToolCalls) > 0
	switch s.Fault {
	case FaultNone:
		if !hasContent && !s.Default {
			return errors.New("nothing to play: give text, thinking, toolCalls, a fault or default")
		}
	case FaultHTTP:
		if s.Error == nil || s.Error.Status < 400 || s.Error.Status > 599 {
			return errors.New(`fault "http" needs error.status between 400 and 599`)
		}
		if hasContent {
			return errors.New(`fault "http" fails before any content: drop thinking, text and toolCalls`)
		}
	case FaultEmpty:
		if hasContent {
			return errors.New(`fault "empty" has no content: drop thinking, text and toolCalls`)
		}
	case FaultStream, FaultHang, FaultMalformed, FaultLength:
	default:
		return fmt.Errorf("unknown fault %q (want http, stream, hang, malformed, empty or length)", s.Fault)
	}
	if s.Default && (s.Text != "" || len(s.ToolCalls) > 0 || s.Fault != FaultNone) {
		return errors.New("default excludes text, toolCalls and fault")
	}
	if s.IdleTimeoutMS < 0 {
		return errors.New("idleTimeoutMs is milliseconds and cannot be negative")
	}
	if s.KeepAliveMS < 0 || s.KeepAliveMS > 0 && s.Fault != FaultHang {
		return errors.New(`keepAliveMs is milliseconds between the keep-alives of a "hang" fault`)
	}
	if err := s.Error.validateHeaders(s.Fault); err != nil {
		return err
	}
	if s.Pace < 0 {
		return errors.New("pace is chunks per second and cannot be negative")
	}
	for j, c := range s.ToolCalls {
		if c.Name == "" {
			return fmt.Errorf("toolCalls[%d] has no name", j)
		}
	}
	if w := s.When; w != nil {
		for _, pattern := range []string{w.Profile, w.Model} {
			if _, err := path.Match(pattern, ""); err != nil {
				return fmt.Errorf("when: bad pattern %q", pattern)
			}
		}
		if w.MinContextTokens < 0 {
			return errors.New("when: minContextTokens cannot be negative")
		}
	}
	return nil
}

// validateHeaders checks that headers are given only with a fault, whose
// error carries them, and that each name is a header name.
func (e *ErrorSpec) validateHeaders(f Fault) error {
	if e == nil || len(e.Headers) == 0 {
		return nil
	}
	if f == FaultNone {
		return errors.New("error.headers travel with a fault's error: give a fault")
	}
	for name := range e.Headers {
		if name == "" || strings.ContainsAny(name, " \t\r\n:") {
			return fmt.Errorf("error.headers: %q is not a header name", name)
		}
	}
	return nil
}

// header is the headers as a response carries them: canonical keys, never
// nil (a response arrived).
func (e ErrorSpec) header() map[string][]string {
	h := http.Header{}
	for name, value := range e.Headers {
		h.Set(name, value)
	}
	return h
}

// jsonError names the file and the line of a decoding error.
func jsonError(name string, data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("%s:%d: %v", name, lineAt(data, int(syntax.Offset)), err)
	case errors.As(err, &typ):
		return fmt.Errorf("%s:%d: %v", name, lineAt(data, int(typ.Offset)), err)
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s: empty file, want a scenario object", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s:%d: unexpected end of file", name, lineAt(data, len(data)))
	}
	// An unknown field carries no offset: point at the key's first use.
	msg := err.Error()
	if field, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		if at := keyOffset(data, field); at >= 0 {
			return fmt.Errorf("%s:%d: unknown field %s", name, lineAt(data, at), field)
		}
	}
	return fmt.Errorf("%s: %v", name, err)
}

// lineAt returns the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// keyOffset finds quoted used as an object key (followed by a colon), or -1.
func keyOffset(data []byte, quoted string) int {
	for from := 0; ; {
		at := bytes.Index(data[from:], []byte(quoted))
		if at < 0 {
			return -1
		}
		at += from
		rest := bytes.TrimLeft(data[at+len(quoted):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return at
		}
		from = at + len(quoted)
	}
}
