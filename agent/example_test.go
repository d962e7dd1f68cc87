package agent_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
)

func ExampleMessage_MarshalJSON() {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	line, err := json.Marshal(agent.UserMessage("fix the build", at))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(line))
	var m agent.Message
	if err := json.Unmarshal(line, &m); err != nil {
		panic(err)
	}
	fmt.Println(m.Role, m.TextContent(), m.Timestamp.Equal(at))
	// Output:
	// {"role":"user","content":"fix the build","timestamp":1767323045000}
	// user fix the build true
}
