package llmtest

import (
	"context"
	"embed"
	"encoding/json"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// recordings are the recorded streams, in the repository so that a test
// cannot skip them for want of a checkout next to it.
//
//go:embed testdata/sse/*.json testdata/sse/*.sse
var recordings embed.FS

// recordingDir is where in recordings the streams are.
const recordingDir = "testdata/sse"

// Sidecar is the expected result of a recorded stream, from its .json file.
type Sidecar struct {
	API           string         `json:"api"`
	ExpectedText  string         `json:"expected_text"`
	ExpectedCalls []ExpectedCall `json:"expected_tool_calls"`
	// ExpectedStop is the API's own stop reason; nil for a stream that
	// ends with ExpectedError.
	ExpectedStop *string `json:"expected_stop"`
	// ExpectedUsage is the API's usage object, when the recording has one.
	ExpectedUsage map[string]any `json:"expected_usage"`
	// ExpectedReasoning (chat completions) and ExpectedThinking (messages)
	// are the thinking text; a recording has at most one.
	ExpectedReasoning string         `json:"expected_reasoning"`
	ExpectedThinking  string         `json:"expected_thinking"`
	ExpectedSignature string         `json:"expected_signature"`
	ExpectedError     *ExpectedError `json:"expected_error"`
}

// ExpectedCall is one tool call a recording must produce.
type ExpectedCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	ID        string         `json:"id"`
}

// ExpectedError is the error event a recording ends with.
type ExpectedError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Fixture is one recorded stream and its sidecar.
type Fixture struct {
	Name string
	Body []byte
	Want Sidecar
}

// LoadFixtures returns the recorded streams of api (testdata/sse), failing
// the test when none is of api.
func LoadFixtures(t testing.TB, api string) []Fixture {
	t.Helper()
	sidecars, err := recordings.ReadDir(recordingDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []Fixture
	for _, e := range sidecars {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		if fx := LoadFixture(t, name); fx.Want.API == api {
			out = append(out, fx)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s fixtures in %s", api, recordingDir)
	}
	return out
}

// LoadFixture returns the recorded stream name (its file name without the
// extension, such as "openai_chat_text_usage"), failing the test when it
// is not there.
func LoadFixture(t testing.TB, name string) Fixture {
	t.Helper()
	file := path.Join(recordingDir, name)
	raw, err := recordings.ReadFile(file + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var want Sidecar
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("%s.json: %v", file, err)
	}
	body, err := recordings.ReadFile(file + ".sse")
	if err != nil {
		t.Fatal(err)
	}
	return Fixture{Name: name, Body: body, Want: want}
}

// Recordings says which recorded streams ReplayFixtures replays and how
// their API's stop reasons map to the kernel's.
type Recordings struct {
	// API is the sidecars' api field.
	API string
	// Stops maps the API's stop reasons to the kernel's.
	Stops map[string]agent.StopReason
	// Check, when set, makes the provider's own checks after the
	// sidecar's.
	Check func(t *testing.T, fx Fixture, msg agent.Message)
}

// ReplayFixtures serves every recorded stream of r.API to the provider h
// opens, whole and in small irregular pieces, and checks the result with
// CheckFixture and r.Check.
func ReplayFixtures(t *testing.T, h ContractHarness, r Recordings) {
	for _, fx := range LoadFixtures(t, r.API) {
		for _, pieces := range []bool{false, true} {
			mode := "whole"
			if pieces {
				mode = "pieces"
			}
			t.Run(fx.Name+"/"+mode, func(t *testing.T) {
				srv := SSEServer(t, fx.Body, pieces)
				fn := h.stream(t, Conn{URL: srv.URL, APIKey: "sk-test-replay"})
				events, msg := Drain(t, fn(context.Background(), h.Model, Prompt, agent.StreamOptions{}))
				CheckFixture(t, fx, r.Stops, events, msg)
				if r.Check != nil {
					r.Check(t, fx, msg)
				}
			})
		}
	}
}

// CheckFixture compares what a recorded stream produced with its sidecar:
// text, thinking and its signature, tool calls, usage when recorded, and the
// stop reason (mapped by stops) or the error event; and checks the events'
// shape.
func CheckFixture(t *testing.T, fx Fixture, stops map[string]agent.StopReason, events []agent.AssistantEvent, msg agent.Message) {
	t.Helper()
	want := fx.Want
	if got := msg.TextContent(); got != want.ExpectedText {
		t.Errorf("text = %q, want %q", got, want.ExpectedText)
	}
	if got, exp := ThinkingOf(msg), want.ExpectedThinking+want.ExpectedReasoning; got != exp {
		t.Errorf("thinking = %q, want %q", got, exp)
	}
	if got := SignatureOf(msg); got != want.ExpectedSignature {
		t.Errorf("signature = %q, want %q", got, want.ExpectedSignature)
	}
	calls := msg.ToolCalls()
	if len(calls) != len(want.ExpectedCalls) {
		t.Fatalf("tool calls = %+v, want %d", calls, len(want.ExpectedCalls))
	}
	for i, c := range calls {
		w := want.ExpectedCalls[i]
		if c.Name != w.Name || c.ID != w.ID {
			t.Errorf("call %d = %s %s, want %s %s", i, c.ID, c.Name, w.ID, w.Name)
		}
		if got, exp := JSONValue(t, c.Arguments), JSONValue(t, w.Arguments); !reflect.DeepEqual(got, exp) {
			t.Errorf("call %d arguments = %v, want %v", i, got, exp)
		}
	}
	if want.ExpectedUsage != nil {
		prompt, _ := want.ExpectedUsage["prompt_tokens"].(float64)
		completion, _ := want.ExpectedUsage["completion_tokens"].(float64)
		u := msg.Usage
		if u.Input+u.CacheRead+u.CacheWrite != int(prompt) || u.Output != int(completion) {
			t.Errorf("usage = %+v, want prompt %v completion %v", u, prompt, completion)
		}
	}
	CheckEvents(t, events, msg)
	last := events[len(events)-1]
	if want.ExpectedStop == nil {
		e := msg.Error
		if want.ExpectedError == nil || msg.StopReason != agent.StopReasonError || e == nil ||
			e.Kind != agent.ErrorStream || e.Type != want.ExpectedError.Type || e.Message != want.ExpectedError.Message {
			t.Fatalf("stop %s error %+v, want a stream error %+v", msg.StopReason, e, want.ExpectedError)
		}
		if !strings.Contains(e.Body, want.ExpectedError.Type) {
			t.Errorf("body = %q, want the error event", e.Body)
		}
		if last.Type != agent.EventError {
			t.Errorf("last event = %s, want error", last.Type)
		}
		return
	}
	if msg.Error != nil {
		t.Fatalf("error: %+v", msg.Error)
	}
	exp, ok := stops[*want.ExpectedStop]
	if !ok || msg.StopReason != exp {
		t.Errorf("stop = %s, want %s (%s)", msg.StopReason, exp, *want.ExpectedStop)
	}
	if last.Type != agent.EventDone {
		t.Errorf("events = %v, want start … done", Types(events))
	}
}
