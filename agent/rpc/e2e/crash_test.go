package e2e

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the driver, for PRAGMA integrity_check

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// crashRounds is how many times the crash test kills steer (issue 3).
const crashRounds = 20

// TestCrashLosesNothing kills `steer rpc` with SIGKILL at random points of
// streaming and of a running bash tool while steering and follow-ups are
// queued. After every kill the database is intact, every acknowledged input is
// in the transcript or still pending exactly once, and once reopened the
// transcript never ends in a dangling tool call.
func TestCrashLosesNothing(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	stateDir, workspace := t.TempDir(), t.TempDir()
	acked := map[string]bool{}
	sent := map[string]bool{}
	for round := 0; round < crashRounds; round++ {
		s := startCmd(t, steerIn(stateDir, workspace, "--pace", "300", "--continue", "rpc"))
		assertRepaired(t, s, round)
		prompt := fmt.Sprintf("hello from round %d", round)
		if round%2 == 1 {
			prompt = fmt.Sprintf("run sleep 0.4; echo round %d", round)
		}
		inputs := []struct{ kind, text string }{
			{"prompt", prompt},
			{"steer", fmt.Sprintf("steer %d-a", round)},
			{"follow_up", fmt.Sprintf("follow %d-b", round)},
			{"steer", fmt.Sprintf("steer %d-c", round)},
		}
		killAfter := time.Duration(rng.IntN(900)) * time.Millisecond
		deadline := time.Now().Add(killAfter)
		for i, in := range inputs {
			if i > 0 && time.Now().After(deadline) {
				break
			}
			behaviour := ""
			if in.kind == "prompt" {
				behaviour = `,"streamingBehavior":"followUp"`
			}
			id := fmt.Sprintf("r%d-%d", round, i)
			s.send(fmt.Sprintf(`{"id":%q,"type":%q,"message":%q%s}`, id, in.kind, in.text, behaviour))
			sent[in.text] = true
			r := s.next("the "+in.kind+" response", 10*time.Second, func(v map[string]any) bool {
				return v["type"] == "response" && v["id"] == id
			})
			if r["success"] != true {
				t.Fatalf("round %d: %s failed: %v", round, in.kind, r)
			}
			acked[in.text] = true
		}
		time.Sleep(time.Until(deadline))
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = s.cmd.Wait()
		checkStore(t, stateDir, workspace, round, acked, sent)
	}
	final := startCmd(t, steerIn(stateDir, workspace, "--pace", "0", "--continue", "rpc"))
	assertRepaired(t, final, crashRounds)
}

// assertRepaired reads the resumed transcript and checks that it does not
// end in a tool call without its result.
func assertRepaired(t *testing.T, s *rpcSession, round int) {
	t.Helper()
	s.send(`{"id":"msgs","type":"get_messages"}`)
	r := s.next("get_messages", 10*time.Second, func(v map[string]any) bool { return v["id"] == "msgs" })
	data, _ := r["data"].(map[string]any)
	msgs, _ := data["messages"].([]any)
	answered := map[string]bool{}
	for _, m := range msgs {
		if mm, _ := m.(map[string]any); mm["role"] == "toolResult" {
			answered[fmt.Sprint(mm["toolCallId"])] = true
		}
	}
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		blocks, _ := mm["content"].([]any)
		for _, b := range blocks {
			if bb, _ := b.(map[string]any); bb["type"] == "toolCall" && !answered[fmt.Sprint(bb["id"])] {
				t.Fatalf("round %d: reopened transcript has tool call %v without a result", round, bb["id"])
			}
		}
	}
}

// checkStore opens the killed process's database: it must pass the integrity
// check, and every acknowledged input must be in the transcript or pending
// exactly once (an input sent but not acknowledged at most once).
func checkStore(t *testing.T, stateDir, workspace string, round int, acked, sent map[string]bool) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(stateDir, "steer.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("round %d: integrity_check = %q, %v", round, integrity, err)
	}
	db.Close()

	store, err := persistence.Open(stateDir, persistence.Options{})
	if err != nil {
		t.Fatalf("round %d: reopening after the kill: %v", round, err)
	}
	defer store.Close()
	ctx := context.Background()
	sess, err := store.LatestSession(ctx, workspace)
	if err != nil {
		t.Fatalf("round %d: no session after the kill: %v", round, err)
	}
	msgs, err := store.LoadTranscript(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := store.PendingInputs(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, m := range msgs {
		if m.Role == agent.RoleUser {
			seen[m.TextContent()]++
		}
	}
	for _, p := range pending {
		seen[p.Text]++
	}
	for text := range sent {
		n := seen[text]
		switch {
		case acked[text] && n != 1:
			t.Fatalf("round %d: acknowledged input %q appears %d times (transcript or pending)", round, text, n)
		case n > 1:
			t.Fatalf("round %d: input %q was duplicated (%d times)", round, text, n)
		}
	}
	for text := range seen {
		if !sent[text] && !strings.HasPrefix(text, "interrupted") {
			t.Fatalf("round %d: unexpected user message %q", round, text)
		}
	}
}
