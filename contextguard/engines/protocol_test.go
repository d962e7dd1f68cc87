package engines

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestDecodeResponse(t *testing.T) {
	cases := []struct {
		name   string
		line   string
		id     uint64
		result string // the raw result, when there is one
		err    string // the reply's error, when there is one
		reason Reason // the reply's failure reason, if it is one
		bad    bool   // the line breaks the stream
	}{
		{"a result", `{"id":7,"result":{"messages":[]}}` + "\n", 7, `{"messages":[]}`, "", "", false},
		{"a null result", `{"id":8,"result":null}`, 8, `null`, "", "", false},
		{"an error", `{"id":3,"error":{"message":"no index"}}`, 3, "", "no index", ReasonError, false},
		{"neither", `{"id":4}`, 4, "", "neither a result nor an error", ReasonInvalidOutput, false},
		{"both", `{"id":5,"result":{},"error":{"message":"x"}}`, 5, "", "both", ReasonInvalidOutput, false},
		{"extra fields are fine", `{"id":6,"result":{},"log":"hi"}`, 6, `{}`, "", "", false},
		{"not JSON", "garbage\n", 0, "", "", "", true},
		{"no id", `{"result":{}}`, 0, "", "", "", true},
		{"an id that is not a number", `{"id":"1","result":{}}`, 0, "", "", "", true},
		{"not an object", `[1,2]`, 0, "", "", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, r, bad := decodeResponse([]byte(tc.line))
			if tc.bad {
				if bad == nil || ReasonOf(bad) != ReasonInvalidOutput {
					t.Fatalf("bad = %v, want an invalid-output failure", bad)
				}
				return
			}
			if bad != nil || id != tc.id {
				t.Fatalf("id %d, bad %v; want id %d", id, bad, tc.id)
			}
			if string(r.result) != tc.result {
				t.Errorf("result %s, want %s", r.result, tc.result)
			}
			switch {
			case tc.err == "" && r.err != nil:
				t.Errorf("err %v, want none", r.err)
			case tc.err != "" && (r.err == nil || !strings.Contains(r.err.Error(), tc.err) || ReasonOf(r.err) != tc.reason):
				t.Errorf("err %v, want %q (%s)", r.err, tc.err, tc.reason)
			}
		})
	}
}

func TestEncodeRequestIsOneLineOfPiMessages(t *testing.T) {
	msgs := []agent.Message{user("line one\nline two \u2028 and 🦀"), assistant(thinking("t"), agent.Text("<b>ok</b>"))}
	line, err := encodeRequest(42, MethodAssemble, AssembleRequest{Session: session, Messages: msgs, TokenBudget: 100})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(line), "\n") != 1 || !strings.HasSuffix(string(line), "\n") {
		t.Fatalf("not one line: %q", line)
	}
	if strings.ContainsRune(string(line), '\u2028') || !strings.Contains(string(line), "<b>") {
		t.Errorf("U+2028 must be escaped and HTML left alone: %s", line)
	}
	var back struct {
		ID     uint64          `json:"id"`
		Method Method          `json:"method"`
		Params AssembleRequest `json:"params"`
	}
	if err := json.Unmarshal(line, &back); err != nil {
		t.Fatal(err)
	}
	if back.ID != 42 || back.Method != MethodAssemble || back.Params.Session != session || back.Params.TokenBudget != 100 {
		t.Errorf("decoded %+v", back)
	}
	if !reflect.DeepEqual(back.Params.Messages, msgs) {
		t.Errorf("messages did not round-trip:\n%+v\n%+v", back.Params.Messages, msgs)
	}
	if !strings.Contains(string(line), `"role":"assistant"`) || !strings.Contains(string(line), `"thinkingSignature":"sig-t"`) {
		t.Errorf("messages are not in pi's shapes: %s", line)
	}
}

func TestDecodeResult(t *testing.T) {
	if res, err := decodeResult[AssembleResult](MethodAssemble, json.RawMessage(`{"messages":[{"role":"user","content":"hi","timestamp":1}],"systemPromptAddition":"x"}`)); err != nil ||
		len(res.Messages) != 1 || res.Messages[0].TextContent() != "hi" || res.SystemPromptAddition != "x" {
		t.Errorf("decoded %+v, %v", res, err)
	}
	for _, raw := range []string{`"a string"`, `{"messages":[{"role":"robot"}]}`, `{"messages":{}}`, `{"delegate":"yes"}`} {
		_, errA := decodeResult[AssembleResult](MethodAssemble, json.RawMessage(raw))
		_, errC := decodeResult[CompactResult](MethodCompact, json.RawMessage(raw))
		if errA == nil && errC == nil {
			t.Errorf("%s parsed as both results", raw)
		}
		for _, err := range []error{errA, errC} {
			if err != nil && ReasonOf(err) != ReasonInvalidOutput {
				t.Errorf("%s: %v is not invalid output", raw, err)
			}
		}
	}
}

func TestReadLine(t *testing.T) {
	const limit = 300 << 10
	cases := []struct {
		name  string
		in    string
		lines []string
		end   error
	}{
		{"lines", "a\nbb\n", []string{"a\n", "bb\n"}, nil},
		{"a last line without newline", "a\nb", []string{"a\n", "b"}, nil},
		{"longer than the buffer", strings.Repeat("y", 200<<10) + "\n", []string{strings.Repeat("y", 200<<10) + "\n"}, nil},
		{"too long", "ok\n" + strings.Repeat("x", limit+1) + "\n", []string{"ok\n"}, errLineTooLong},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tc.in), 64<<10)
			var got []string
			for {
				line, err := readLine(br, limit)
				if len(line) > 0 {
					got = append(got, string(line))
				}
				if err != nil {
					if tc.end != nil && !errors.Is(err, tc.end) {
						t.Errorf("ended with %v, want %v", err, tc.end)
					}
					break
				}
			}
			if !reflect.DeepEqual(got, tc.lines) {
				t.Errorf("lines %d, want %d", len(got), len(tc.lines))
			}
		})
	}
}

func TestLineTooLongNamesTheLimit(t *testing.T) {
	if want := fmt.Sprintf(" %d MiB", maxLineBytes>>20); !strings.HasSuffix(errLineTooLong.Error(), want) {
		t.Errorf("errLineTooLong = %q, want it to end with %q (maxLineBytes)", errLineTooLong, want)
	}
}
