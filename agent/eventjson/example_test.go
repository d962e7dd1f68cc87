package eventjson_test

import (
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
)

func ExampleEncode() {
	ev := agent.QueueUpdate{Items: []agent.QueueItem{
		{ID: "q_1", Kind: agent.QueueSteer, Text: "use tabs"},
		{ID: "q_2", Kind: agent.QueueFollowUp, Text: "then run the tests"},
	}}
	line, err := eventjson.Encode(ev, "s_1")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(line))
	// Output:
	// {"type":"queue_update","sessionId":"s_1","steering":["use tabs"],"followUp":["then run the tests"],"items":[{"id":"q_1","kind":"steer","text":"use tabs"},{"id":"q_2","kind":"follow_up","text":"then run the tests"}]}
}

func ExampleSessionHeader() {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fmt.Println(string(eventjson.SessionHeader("s_1", "/home/me/project", at)))
	// Output:
	// {"type":"session","version":3,"id":"s_1","timestamp":"2026-01-02T03:04:05Z","cwd":"/home/me/project"}
}
