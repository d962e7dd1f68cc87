package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// treeEntryOut is one entry of get_tree: pi's shape, a "type" always, the
// message for a message entry, a marker's fields for the others.
type treeEntryOut struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ParentID  *string         `json:"parentId"`
	Timestamp time.Time       `json:"timestamp"`
	Message   *agent.Message  `json:"message,omitempty"`
	Messages  []agent.Message `json:"messages,omitempty"`
	TargetID  string          `json:"targetId,omitempty"`
	Label     *string         `json:"label,omitempty"`
	Summary   string          `json:"summary,omitempty"`
	Model     string          `json:"model,omitempty"`
	Thinking  string          `json:"thinkingLevel,omitempty"`
}

// getTree answers with the session's whole tree, every branch, and its leaf.
func (s *Server) getTree(ctx context.Context, _ command) (any, error) {
	t, err := s.rt.Tree(ctx)
	if err != nil {
		return nil, err
	}
	entries := make([]treeEntryOut, len(t.Entries))
	for i, e := range t.Entries {
		out := treeEntryOut{Type: string(e.Kind), ID: e.ID, Timestamp: e.Created, TargetID: e.Target,
			Summary: e.Summary, Model: e.Model, Thinking: e.Thinking}
		if e.ParentID != "" {
			parent := e.ParentID
			out.ParentID = &parent
		}
		switch e.Kind {
		case runner.HistoryMessage:
			msg := e.Message
			out.Message = &msg
		case runner.HistoryContext:
			out.Messages = e.Context
		case runner.HistoryLabel:
			label := e.Label
			out.Label = &label
		}
		entries[i] = out
	}
	var leaf *string
	if t.Leaf != "" {
		leaf = &t.Leaf
	}
	return struct {
		LeafID  *string        `json:"leafId"`
		Entries []treeEntryOut `json:"entries"`
	}{leaf, entries}, nil
}

// navigateTree moves the leaf to "targetId"; "summarize": true summarises
// the branch left first.
func (s *Server) navigateTree(ctx context.Context, c command) (any, error) {
	id, err := c.requiredString("targetId")
	if err != nil {
		return nil, err
	}
	summarize := false
	if c.has("summarize") {
		if err := json.Unmarshal(c.fields["summarize"], &summarize); err != nil {
			return nil, errors.New(`"summarize" must be true or false`)
		}
	}
	if err := s.rt.NavigateTree(ctx, id, summarize); err != nil {
		return nil, busy(err, "move in the tree")
	}
	return struct {
		Cancelled bool `json:"cancelled"`
	}{}, nil
}

// fork makes a new session of the path before user message "entryId"
// current, answering with that message's text.
func (s *Server) fork(ctx context.Context, c command) (any, error) {
	id, err := c.requiredString("entryId")
	if err != nil {
		return nil, err
	}
	text, err := s.rt.Fork(ctx, id)
	if err != nil {
		return nil, busy(err, "fork")
	}
	return struct {
		Text      string `json:"text"`
		SessionID string `json:"sessionId"`
		Cancelled bool   `json:"cancelled"`
	}{text, s.rt.SessionID(), false}, nil
}

// clone makes a copy of the session's path current.
func (s *Server) clone(ctx context.Context, _ command) (any, error) {
	if err := s.rt.Clone(ctx); err != nil {
		return nil, busy(err, "clone")
	}
	return struct {
		SessionID string `json:"sessionId"`
		Cancelled bool   `json:"cancelled"`
	}{s.rt.SessionID(), false}, nil
}

// busy words agent.ErrBusy for what could not be done.
func busy(err error, what string) error {
	if errors.Is(err, agent.ErrBusy) {
		return fmt.Errorf("cannot %s while a run is active; abort it first", what)
	}
	return err
}
