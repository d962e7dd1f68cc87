package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Piece sizes for streamed tool-call arguments: providers send anything from
// a byte to a few dozen per delta.
const (
	minArgPiece = 1
	maxArgPiece = 64
)

// writeArgs returns a write tool call's argument JSON of about size bytes: a
// path and a source file with the escapes (newlines, tabs, quotes) and
// non-ASCII text real files carry.
func writeArgs(size int) string {
	const line = "\tfmt.Println(\"héllo, wörld\") // a line of code — ünïcode\n"
	content := strings.Repeat(line, size/len(line)+1)
	body, _ := json.Marshal(content)
	head := `{"path": "internal/big.go", "content": `
	return head + string(body[:size-len(head)-2]) + `"}`
}

// argPieces cuts s into pieces of minArgPiece to maxArgPiece bytes, the same
// cuts every run.
func argPieces(s string) []string {
	rng := rand.New(rand.NewPCG(1, 2))
	var pieces []string
	for len(s) > 0 {
		n := min(minArgPiece+rng.IntN(maxArgPiece-minArgPiece+1), len(s))
		pieces = append(pieces, s[:n])
		s = s[n:]
	}
	return pieces
}

// BenchmarkStreamToolCallArgs streams one tool call's argument JSON through a
// StreamWriter in 1- to 64-byte pieces and reports ns per argument byte. The
// cost must be linear in the argument's size, so ns/byte stays flat from
// 10 KB to 200 KB.
func BenchmarkStreamToolCallArgs(b *testing.B) {
	for _, kb := range []int{10, 50, 100, 200} {
		raw := writeArgs(kb << 10)
		pieces := argPieces(raw)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				// A closed stream drops every event, so only the writer's own
				// work (parsing and snapshots) is measured.
				stream := agent.NewAssistantStream()
				stream.Close()
				w := agent.NewStreamWriter(context.Background(), stream, agent.Model{}, time.Time{})
				w.ToolCallStart("call-1", "write")
				for _, p := range pieces {
					w.ToolCallDelta(p)
				}
				w.Finish(agent.StopReasonToolUse)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(raw)), "ns/byte")
		})
	}
}
