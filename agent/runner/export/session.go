package export

import (
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
)

// EntryType names the kind of a transcript entry.
type EntryType = string

// The entry kinds of the transcript tree.
const (
	TypeMessage        EntryType = "message"
	TypeCompaction     EntryType = "compaction"
	TypeModelChange    EntryType = "model_change"
	TypeThinkingChange EntryType = "thinking_change"
	TypeLabel          EntryType = "label"
	TypeBranchSummary  EntryType = "branch_summary"
	TypeRewind         EntryType = "rewind"
	TypeApprovalChange EntryType = "approval_change"
)

// knownType says whether a writer understands t (a switch, not a map
// literal, so that package initialisation runs no code).
func knownType(t EntryType) bool {
	switch t {
	case TypeMessage, TypeCompaction, TypeModelChange, TypeThinkingChange, TypeLabel, TypeBranchSummary, TypeRewind,
		TypeApprovalChange:
		return true
	}
	return false
}

// Session is a whole transcript tree with the facts a reader needs about it.
type Session struct {
	ID        string
	Title     string
	Workspace string
	Model     string
	Created   time.Time
	// Leaf is the id of the current branch's last entry; empty only when
	// there are no entries.
	Leaf    string
	Entries []Entry
	// Name is what the user named the session; "" for none.
	Name string
	// Queue are the inputs queued on the session and not yet sent.
	Queue []agent.QueueItem
	// Todo is the current branch's todo list (see runner.TodoOf).
	Todo tools.TodoList
}

// Entry is one node of the transcript tree. Only the fields of its Type are
// meaningful: Message for a message; Summary, FirstKeptID and the token
// counts for a compaction, and Context, the exact messages the model sees
// from it on (what a resumed session needs); Summary for a branch summary; Model for a model
// change; Thinking for a thinking change; Approval for a change of tool
// approval mode; Label and TargetID for a label;
// TargetID (the turn's user message), Scope and Files for a rewind.
type Entry struct {
	ID       string
	ParentID string // empty for a root
	Type     EntryType

	Message      *agent.Message
	Context      []agent.Message
	Summary      string
	Label        string
	TargetID     string // a label's entry
	Model        string
	Thinking     string
	Approval     string
	Scope        string // a rewind's: code, conversation, both or redo
	Files        int    // a rewind's: the files restored
	FirstKeptID  string
	TokensBefore int
	TokensAfter  int
	Time         time.Time
}
