package persistence

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestEncodeMessagesStoresMarshalJSON checks that a stored message is the
// message's own JSON, encoded once: text such as "a < b && c > d" is stored
// as written (json.Marshal would escape it again on top), and it reads back.
func TestEncodeMessagesStoresMarshalJSON(t *testing.T) {
	at := time.UnixMilli(1782321900000).UTC()
	for _, msg := range []agent.Message{
		agent.UserMessage("if a < b && c > d", at),
		{Role: agent.RoleAssistant, Content: []agent.Content{{Type: agent.ContentText, Text: strings.Repeat("<tag> & ", 1000)}}, Timestamp: at},
	} {
		enc, err := encodeMessages([]agent.Message{msg})
		if err != nil {
			t.Fatal(err)
		}
		want, err := msg.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if enc[0] != string(want) || strings.Contains(enc[0], `\u003c`) {
			t.Fatalf("stored %.80s…, want %.80s…", enc[0], want)
		}
		var back agent.Message
		if err := json.Unmarshal([]byte(enc[0]), &back); err != nil || back.TextContent() != msg.TextContent() {
			t.Fatalf("read back %q (%v), want %q", back.TextContent(), err, msg.TextContent())
		}
	}
}
