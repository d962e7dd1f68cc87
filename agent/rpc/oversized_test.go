package rpc

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/agenttest"
)

func TestOversizedID(t *testing.T) {
	big := strings.Repeat("x", 3*idScanBytes)
	tests := []struct {
		name, line, want string // want "" is no id
	}{
		{"id first", `{"id":"7","type":"prompt","message":"` + big + `"}`, `"7"`},
		{"id after the type", `{"type":"prompt", "id" : 12, "message":"` + big + `"}`, `12`},
		{"id last, as pi's client sends it", `{"type":"prompt","message":"` + big + `","id":"req_3"}`, `"req_3"`},
		{"an escaped id inside the message is not one", `{"type":"prompt","message":"` + big + `,\"id\":\"no\"}"}`, ``},
		{"an id inside a value of the head is not one", `{"type":"prompt","images":[{"id":"no"}],"message":"` + big + `"}`, ``},
		{"no id", `{"type":"prompt","message":"` + big + `"}`, ``},
		{"an id that is an object is not echoed", `{"id":{"a":1},"message":"` + big + `"}`, ``},
		{"not JSON", big, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o oversized
			for i := 0; i < len(tt.line); i += 1000 { // in pieces, as the reader hands them
				o.add([]byte(tt.line[i:min(i+1000, len(tt.line))]))
			}
			if len(o.head) > idScanBytes || len(o.tail) > idScanBytes {
				t.Fatalf("kept %d + %d bytes", len(o.head), len(o.tail))
			}
			if got := string(o.id()); got != tt.want {
				t.Errorf("id = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestServerLineTooLongKeepsItsID: the parse error for an oversized line
// names the command's id, wherever the client put it.
func TestServerLineTooLongKeepsItsID(t *testing.T) {
	h := newHarness(t, agenttest.NewScript(), WithMaxLineBytes(64))
	long := strings.Repeat("x", 100<<10)
	h.send(`{"id":"first","type":"prompt","message":"` + long + `"}`)
	if r := h.next(); !r.isResponse("first") || r["command"] != "parse" || r["success"] != false {
		t.Fatalf("too long line with its id first: %v", r)
	}
	h.send(`{"type":"prompt","message":"` + long + `","id":"last"}`)
	if r := h.next(); !r.isResponse("last") || r["command"] != "parse" || r["success"] != false {
		t.Fatalf("too long line with its id last: %v", r)
	}
}
