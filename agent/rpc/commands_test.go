package rpc

import (
	"bufio"
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

func TestServerParseErrorsThenCommands(t *testing.T) {
	h := newHarness(t, agenttest.NewScript())
	h.send("not json")
	h.send("[1,2]")
	h.send("")
	h.send("   ")
	h.send(`{"id":"a"}`)
	h.send(`{"id":"b","type":7}`)
	h.sendRaw(`{"type":"get_state","id":"s"}` + "\r\n")
	h.sendRaw(`{"type":"get_messages","id":"eof"}`) // no newline before the end

	wantErrors := []struct {
		id   any
		text string
	}{
		{nil, "Failed to parse command: invalid character"},
		{nil, "Failed to parse command: expected a JSON object, got array"},
		{"a", `Failed to parse command: missing "type"`},
		{"b", `Failed to parse command: "type" must be a string`},
	}
	for _, want := range wantErrors {
		l := h.next()
		if !l.is("response") || l["command"] != "parse" || l["success"] != false || l["id"] != want.id ||
			!strings.HasPrefix(l["error"].(string), want.text) {
			t.Fatalf("got %v, want a parse error %q with id %v", l, want.text, want.id)
		}
	}
	if l := h.next(); !l.isResponse("s") || l["command"] != "get_state" || l["success"] != true {
		t.Fatalf("get_state after parse errors: %v", l)
	}
	if err := h.closeInput(); err != nil {
		t.Fatal(err)
	}
	rest := h.rest()
	if len(rest) != 1 || !rest[0].isResponse("eof") || rest[0]["success"] != true {
		t.Fatalf("after the input ended: %v", rest)
	}
}

func TestServerAnswersEveryCommandOnce(t *testing.T) {
	cases := []struct {
		cmd     string
		success bool
		err     string // part of the error
	}{
		{`{"type":"get_state","id":1}`, true, ""},
		{`{"type":"get_messages","id":"m"}`, true, ""},
		{`{"type":"get_available_models","id":{"k":[1,"x"]}}`, true, ""},
		{`{"type":"get_last_assistant_text","id":null}`, true, ""},
		{`{"type":"set_thinking_level","level":"high","id":2.5}`, true, ""},
		{`{"type":"set_thinking_level","level":"ultra","id":"t"}`, false, `invalid thinking level "ultra"`},
		{`{"type":"set_thinking_level","id":"t2"}`, false, `needs "level"`},
		{`{"type":"set_steering_mode","mode":"all","id":"sm"}`, true, ""},
		{`{"type":"set_steering_mode","mode":"bogus","id":"sm2"}`, false, `invalid mode "bogus"`},
		{`{"type":"set_follow_up_mode","mode":"one-at-a-time","id":"fm"}`, true, ""},
		{`{"type":"set_follow_up_mode","mode":3,"id":"fm2"}`, false, `"mode" must be a string`},
		{`{"type":"set_model","provider":"test","modelId":"other","id":"sd"}`, true, ""},
		{`{"type":"set_model","provider":"test","modelId":"nope","id":"sd2"}`, false, "unknown model"},
		{`{"type":"set_model","provider":"nope","modelId":"x","id":"sd3"}`, false, "unknown provider"},
		{`{"type":"dequeue","id":"dq"}`, true, ""},
		{`{"type":"dequeue","itemId":"q_missing","id":"dq2"}`, false, `no queued item "q_missing"`},
		{`{"type":"dequeue","itemId":false,"id":"dq3"}`, false, `"itemId" must be a string`},
		{`{"type":"abort","id":"ab"}`, true, ""},
		{`{"type":"new_session","id":"ns"}`, true, ""},
		{`{"type":"prompt","message":5,"id":"p1"}`, false, `"message" must be a string`},
		{`{"type":"prompt","id":"p2"}`, false, `prompt needs "message"`},
		{`{"type":"prompt","message":"","id":"p3"}`, false, `"message" is empty`},
		{`{"type":"prompt","message":"x","streamingBehavior":"later","id":"p4"}`, false, `invalid streamingBehavior "later"`},
		{`{"type":"prompt","message":"x","images":"none","id":"p5"}`, false, `"images" must be an array`},
		{`{"type":"prompt","message":"x","images":[{"type":"image","mimeType":"image/png"}],"id":"p6"}`, false, "images[0]: image has no data"},
		{`{"type":"steer","message":["x"],"id":"st"}`, false, `"message" must be a string`},
		{`{"type":"follow_up","id":"fu"}`, false, `follow_up needs "message"`},
		{`{"type":"compact","id":"c"}`, false, "nothing to compact"},
		{`{"type":"inspect","what":"engines","id":"ie"}`, true, ""},
		{`{"type":"clear_quarantine","id":"cq"}`, false, `clear_quarantine needs "engine"`},
		{`{"type":"clear_quarantine","engine":"legacy","id":"cq2"}`, false, `context engine "legacy" is not quarantined`},
		{`{"type":"clear_cooldown","id":"cc"}`, false, `clear_cooldown needs "profile"`},
		{`{"type":"clear_cooldown","profile":"nope","id":"cc2"}`, false, `no auth profile "nope" is configured`},
		{`{"type":"clear_cooldown","profile":"test:default","id":"cc3"}`, true, ""},
		{`{"type":"approve","id":"ap"}`, false, `approve needs "toolCallId"`},
		{`{"type":"approve","id":"ap2","toolCallId":"c9","decision":"maybe"}`, false, `unknown decision "maybe"`},
		{`{"type":"approve","id":"ap3","toolCallId":"c9","decision":"allow"}`, false, `no tool call "c9" is waiting for approval`},
		{`{"type":"set_session_name","name":"x","id":"sn"}`, false, "set_session_name is not supported yet"},
		{`{"type":"frobnicate","id":"u"}`, false, "unknown command: frobnicate"},
		{`{"type":"get_state"}`, true, ""},
	}
	h := newHarness(t, agenttest.NewScript())
	for _, tc := range cases {
		h.send(tc.cmd)
	}
	if err := h.closeInput(); err != nil {
		t.Fatal(err)
	}
	var out []line // the responses; compact also sends its compaction events
	for _, l := range h.rest() {
		if l.is("response") {
			out = append(out, l)
		} else if !l.is("compaction_start") && !l.is("compaction_end") {
			t.Errorf("unexpected event %v", l)
		}
	}
	if len(out) != len(cases) {
		t.Fatalf("%d responses for %d commands: %v", len(out), len(cases), out)
	}
	for i, tc := range cases {
		var cmd map[string]any
		if err := json.Unmarshal([]byte(tc.cmd), &cmd); err != nil {
			t.Fatal(err)
		}
		got := out[i]
		wantID, hasID := cmd["id"]
		gotID, gotHasID := got["id"]
		if !got.is("response") || got["command"] != cmd["type"] || hasID != gotHasID || !reflect.DeepEqual(gotID, wantID) {
			t.Errorf("%s: got %v", tc.cmd, got)
			continue
		}
		if got["success"] != tc.success {
			t.Errorf("%s: success %v, want %v (%v)", tc.cmd, got["success"], tc.success, got["error"])
		}
		if errText, _ := got["error"].(string); !strings.Contains(errText, tc.err) || (tc.err == "") != (errText == "") {
			t.Errorf("%s: error %q, want it to contain %q", tc.cmd, errText, tc.err)
		}
		if !tc.success && got["data"] != nil {
			t.Errorf("%s: a failure carries data %v", tc.cmd, got["data"])
		}
	}
}

func TestServerDequeue(t *testing.T) {
	release := make(chan struct{})
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("a").Wait(release)))
	h.send(`{"type":"prompt","message":"go","id":"p"}`)
	h.until(isDelta)
	h.send(`{"type":"follow_up","message":"later","id":"f"}`)
	later := h.response("f").data()["itemId"].(string)
	h.send(`{"type":"steer","message":"sooner","id":"s"}`)
	sooner := h.response("s").data()["itemId"].(string)

	h.send(`{"type":"dequeue","itemId":"` + later + `","id":"d1"}`)
	lines := h.until(func(l line) bool { return l.isResponse("d1") })
	d := lines[len(lines)-1].data()
	wantItems := []any{map[string]any{"id": later, "kind": "follow_up", "text": "later"}}
	if !reflect.DeepEqual(d["items"], wantItems) || !reflect.DeepEqual(d["texts"], []any{"later"}) {
		t.Fatalf("dequeue one: %v", d)
	}
	if i := slices.IndexFunc(lines, isType("queue_update")); i < 0 || !reflect.DeepEqual(lines[i]["followUp"], []any{}) ||
		!reflect.DeepEqual(lines[i]["steering"], []any{"sooner"}) {
		t.Fatalf("no queue_update without the taken item: %v", lines)
	}

	h.send(`{"type":"dequeue","itemId":"` + later + `","id":"d2"}`)
	if r := h.response("d2"); r["success"] != false {
		t.Fatalf("dequeue twice: %v", r)
	}
	h.send(`{"type":"dequeue","id":"d3"}`)
	d = h.response("d3").data()
	if !reflect.DeepEqual(d["texts"], []any{"sooner"}) || d["items"].([]any)[0].(map[string]any)["id"] != sooner {
		t.Fatalf("dequeue all: %v", d)
	}

	close(release)
	h.event("agent_end")
	if n := len(h.script.Requests()); n != 1 {
		t.Fatalf("%d requests: a taken-back item was delivered", n)
	}
}

func TestServerGetState(t *testing.T) {
	h := newHarness(t, agenttest.NewScript())
	h.send(`{"type":"get_state","id":"s"}`)
	got := h.response("s").data()
	want := map[string]any{
		"model": map[string]any{
			"id": "scripted-test", "name": "scripted-test", "api": "test", "provider": "test", "baseUrl": "",
			"reasoning": false, "input": []any{"text"}, "contextWindow": 100000.0, "maxTokens": 0.0,
			"cost": map[string]any{"input": 0.0, "output": 0.0, "cacheRead": 0.0, "cacheWrite": 0.0},
		},
		"thinkingLevel": "off", "isStreaming": false, "isCompacting": false,
		"steeringMode": "one-at-a-time", "followUpMode": "one-at-a-time",
		"sessionId": h.rt.SessionID(), "messageCount": 0.0, "pendingMessageCount": 0.0, "queue": []any{},
		"approvalMode": "auto",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("get_state\n got %v\nwant %v", got, want)
	}

	for _, cmd := range []string{
		`{"type":"set_thinking_level","level":"medium"}`,
		`{"type":"set_steering_mode","mode":"all"}`,
		`{"type":"set_follow_up_mode","mode":"all"}`,
		`{"type":"set_model","provider":"test","modelId":"other","id":"m"}`,
		`{"type":"set_thinking_level","level":"max"}`,
		`{"type":"set_steering_mode","mode":"some"}`,
	} {
		h.send(cmd)
	}
	model := h.response("m").data()
	if model["id"] != "other" || model["name"] != "Other" || model["maxTokens"] != 1000.0 || model["reasoning"] != true ||
		!reflect.DeepEqual(model["input"], []any{"text", "image"}) {
		t.Fatalf("set_model data %v", model)
	}
	h.send(`{"type":"get_state","id":"s2"}`)
	got = h.response("s2").data()
	if got["thinkingLevel"] != "medium" || got["steeringMode"] != "all" || got["followUpMode"] != "all" ||
		got["model"].(map[string]any)["id"] != "other" {
		t.Fatalf("state after the set commands: %v", got)
	}
	h.send(`{"type":"get_available_models","id":"am"}`)
	models := h.response("am").data()["models"].([]any)
	if len(models) != 2 || models[1].(map[string]any)["provider"] != "test" {
		t.Fatalf("models %v", models)
	}
}

func TestServerInputFraming(t *testing.T) {
	long := strings.Repeat("é", 150_000) // 300 KB: more than the reader's buffer
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("a"), agenttest.Reply().Text("b")))
	h.send("{\"type\":\"prompt\",\"message\":\"line\u2028sep\u2029para\",\"id\":\"1\"}")
	h.run("1")
	h.send(`{"type":"prompt","message":"` + long + `","id":"2"}`)
	h.run("2")
	reqs := h.script.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := lastUserText(t, reqs[0]); got != "line\u2028sep\u2029para" {
		t.Fatalf("U+2028/U+2029 split the line: %q", got)
	}
	if got := lastUserText(t, reqs[1]); got != long {
		t.Fatalf("long line arrived as %d bytes", len(got))
	}
}

func TestServerLineTooLong(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(), WithMaxLineBytes(64))
	h.send(`{"type":"get_state","id":"` + strings.Repeat("x", 100) + `"}`)
	if r := h.next(); r["command"] != "parse" || !strings.Contains(r["error"].(string), "longer than 64 bytes") {
		t.Fatalf("too long line: %v", r)
	}
	h.send(`{"type":"get_messages","id":"ok"}`)
	if r := h.next(); !r.isResponse("ok") || r["success"] != true {
		t.Fatalf("after a too long line: %v", r)
	}
}

func TestServerImages(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(agenttest.Reply().Text("nice")))
	h.send(`{"type":"prompt","message":"look","id":"p","images":[` +
		`{"type":"image","data":"aGk=","mimeType":"image/png"},` +
		`{"type":"image","source":{"type":"base64","mediaType":"image/jpeg","data":"eA=="}}]}`)
	if _, r := h.run("p"); r["success"] != true {
		t.Fatalf("prompt with images: %v", r)
	}
	req := h.script.Requests()[0]
	want := []agent.Content{
		agent.Text("look"),
		{Type: agent.ContentImage, Data: "aGk=", MimeType: "image/png"},
		{Type: agent.ContentImage, Data: "eA==", MimeType: "image/jpeg"},
	}
	if got := req.Messages[len(req.Messages)-1].Content; !reflect.DeepEqual(got, want) {
		t.Fatalf("user content\n got %#v\nwant %#v", got, want)
	}
}

func TestReadLine(t *testing.T) {
	in := "a\r\n\nb\u2028c\n" + strings.Repeat("x", 20) + "\nlast\r"
	br := bufio.NewReaderSize(strings.NewReader(in), 16)
	var got []string
	for {
		l := readLine(br, 10)
		switch {
		case l.tooLong:
			got = append(got, "<too long>")
		default:
			got = append(got, string(l.line))
		}
		if l.err != nil {
			if l.err != io.EOF {
				t.Fatal(l.err)
			}
			break
		}
	}
	want := []string{"a", "", "b\u2028c", "<too long>", "last"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestCommandNamesAreUnique checks the command tables: a name handled twice
// would make the second handler dead, and a name both handled and listed as
// not supported would be unreachable in the list.
func TestCommandNamesAreUnique(t *testing.T) {
	seen := map[string]string{}
	for _, h := range handlers {
		if h.typ == "" || h.h == nil {
			t.Errorf("an empty entry in handlers: %+v", h)
		}
		if seen[h.typ] != "" {
			t.Errorf("%s is handled twice", h.typ)
		}
		seen[h.typ] = "handled"
	}
	for _, typ := range notSupported {
		if was := seen[typ]; was != "" {
			t.Errorf("%s is listed as not supported, and is %s already", typ, was)
		}
		seen[typ] = "listed as not supported"
	}
}
