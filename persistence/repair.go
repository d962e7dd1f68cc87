package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
)

// The texts Repair writes.
const (
	// InterruptedToolText is the content of the error result given to a tool
	// call that never finished.
	InterruptedToolText = "interrupted: the previous run ended before this tool finished"
	// InterruptedTurnText is the errorMessage of the aborted marker.
	InterruptedTurnText = "interrupted: the previous run ended before this turn finished"
)

// Repair returns the messages to append to a transcript that was cut in the
// middle of a tool batch, or nil when it needs none. A transcript needs repair
// when its last assistant message stopped for tool use, only tool results
// follow it, and some of its tool calls have no result: each such call gets an
// error result (InterruptedToolText), in call order, followed by an aborted
// assistant marker (InterruptedTurnText) that carries the interrupted
// message's api, provider and model. The tools are never run again. A
// transcript that ends in a user message is left alone: a run can continue
// from it. All the returned messages are stamped now.
func Repair(msgs []agent.Message, now time.Time) []agent.Message {
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != agent.RoleToolResult {
			last = i
			break
		}
	}
	if last < 0 || msgs[last].Role != agent.RoleAssistant || msgs[last].StopReason != agent.StopReasonToolUse {
		return nil
	}
	done := make(map[string]bool)
	for _, m := range msgs[last+1:] {
		done[m.ToolCallID] = true
	}
	var fix []agent.Message
	for _, call := range msgs[last].ToolCalls() {
		if done[call.ID] {
			continue
		}
		fix = append(fix, agent.Message{
			Role:       agent.RoleToolResult,
			Content:    []agent.Content{agent.Text(InterruptedToolText)},
			Timestamp:  now,
			ToolCallID: call.ID,
			ToolName:   call.Name,
			IsError:    true,
		})
	}
	if len(fix) == 0 {
		return nil
	}
	cut := msgs[last]
	return append(fix, agent.Message{
		Role:         agent.RoleAssistant,
		Content:      []agent.Content{},
		Timestamp:    now,
		API:          cut.API,
		Provider:     cut.Provider,
		Model:        cut.Model,
		StopReason:   agent.StopReasonAborted,
		ErrorMessage: InterruptedTurnText,
	})
}

// RepairSession loads the end of the session's transcript (its last turn:
// Repair looks no further), appends what Repair returns
// through the fenced write path (all of it in one transaction) and returns
// what it appended, nil when the transcript was sound. The appended messages
// are stamped with the store's clock to the millisecond, as they load back.
func (s *Store) RepairSession(ctx context.Context, sessionID, writerRunID string) ([]agent.Message, error) {
	msgs, leaf, err := s.loadFrom(ctx, sessionID, lastTurn)
	if err != nil {
		return nil, fmt.Errorf("repair session %s: %w", sessionID, err)
	}
	return s.RepairLoaded(ctx, sessionID, writerRunID, msgs, leaf)
}

// RepairLoaded is RepairSession for a transcript the caller has read
// already (a session being opened reads what the model sees anyway): msgs
// is that transcript, its last turn at least, and leaf the sequence number
// of the last entry read. When the transcript has grown since, nothing is
// written and the error says so.
func (s *Store) RepairLoaded(ctx context.Context, sessionID, writerRunID string, msgs []agent.Message, leaf int) ([]agent.Message, error) {
	now := s.now()
	fix := Repair(msgs, time.UnixMilli(now.UnixMilli()).UTC())
	if len(fix) == 0 {
		return nil, nil
	}
	enc, err := encodeMessages(fix)
	if err != nil {
		return nil, fmt.Errorf("repair session %s: %w", sessionID, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := checkWriter(ctx, tx, sessionID, writerRunID); err != nil {
			return err
		}
		at, err := appendPoint(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		// The repair was computed from what was loaded outside this
		// transaction; it only fits if nothing was appended since.
		if at.leaf != leaf {
			return fmt.Errorf("the transcript changed while it was being repaired (leaf %d, expected %d)", at.leaf, leaf)
		}
		return appendEntries(ctx, tx, sessionID, writerRunID, at, fix, enc, now)
	})
	if err != nil {
		return nil, fmt.Errorf("repair session %s: %w", sessionID, err)
	}
	return fix, nil
}
