package rpc

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/tools"
)

// modelJSON is pi's Model object.
type modelJSON struct {
	ID            string        `json:"id"`
	Name          string        `json:"name"`
	API           string        `json:"api"`
	Provider      string        `json:"provider"`
	BaseURL       string        `json:"baseUrl"`
	Reasoning     bool          `json:"reasoning"`
	Input         []string      `json:"input"`
	ContextWindow int           `json:"contextWindow"`
	MaxTokens     int           `json:"maxTokens"`
	Cost          modelCostJSON `json:"cost"`
}

type modelCostJSON struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

// modelOut renders m as pi's Model: a missing name is the id, missing input
// kinds are text only.
func modelOut(m agent.Model) modelJSON {
	name, input := m.Name, m.Input
	if name == "" {
		name = m.ID
	}
	if len(input) == 0 {
		input = []string{"text"}
	}
	return modelJSON{
		ID: m.ID, Name: name, API: m.API, Provider: m.Provider, BaseURL: m.BaseURL,
		Reasoning: m.Reasoning, Input: input, ContextWindow: m.ContextWindow, MaxTokens: m.MaxOutput,
		Cost: modelCostJSON{Input: m.Cost.Input, Output: m.Cost.Output, CacheRead: m.Cost.CacheRead, CacheWrite: m.Cost.CacheWrite},
	}
}

// stateJSON is pi's RpcSessionState plus steer's queue items. steer has no
// session files yet, and compaction never runs as a separate step here, so
// isCompacting is always false.
type stateJSON struct {
	Model               modelJSON             `json:"model"`
	ThinkingLevel       string                `json:"thinkingLevel"`
	IsStreaming         bool                  `json:"isStreaming"`
	IsCompacting        bool                  `json:"isCompacting"`
	SteeringMode        string                `json:"steeringMode"`
	FollowUpMode        string                `json:"followUpMode"`
	SessionID           string                `json:"sessionId"`
	MessageCount        int                   `json:"messageCount"`
	PendingMessageCount int                   `json:"pendingMessageCount"`
	Queue               []eventjson.QueueItem `json:"queue"`
	// PersistError says why saving the session fails, while it does.
	PersistError string `json:"persistError,omitempty"`
	// Todo is the session's todo list, {items: [{text, status}]}, while
	// it has items.
	Todo *tools.TodoList `json:"todo,omitempty"`
	// ApprovalMode is the session's approval mode (ask, auto, never or
	// plan); PlanFile its plan file while that is plan.
	ApprovalMode tools.Mode `json:"approvalMode"`
	PlanFile     string     `json:"planFile,omitempty"`
}

func stateOut(st runner.State) stateJSON {
	thinking := st.Thinking
	if thinking == "" {
		thinking = agent.ThinkingOff
	}
	return stateJSON{
		Model:               modelOut(st.Model),
		ThinkingLevel:       string(thinking),
		IsStreaming:         st.Running,
		SteeringMode:        string(st.SteeringMode),
		FollowUpMode:        string(st.FollowUpMode),
		SessionID:           st.SessionID,
		MessageCount:        len(st.Messages),
		PendingMessageCount: len(st.Queue),
		Queue:               eventjson.QueueItems(st.Queue),
		PersistError:        st.PersistError,
		Todo:                todoOut(st.Todo),
		ApprovalMode:        st.Approval,
		PlanFile:            st.PlanFile,
	}
}

// todoOut is l for the state, nil when it is empty.
func todoOut(l tools.TodoList) *tools.TodoList {
	if len(l.Items) == 0 {
		return nil
	}
	return &l
}
