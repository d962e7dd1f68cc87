package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Version is the JSONL format this package writes: version 2 added a
// compaction's context and the queued lines. ReadJSONL reads minVersion on.
const (
	Version    = 2
	minVersion = 1
)

// lineQueued is the type of a line holding a queued input: not an entry of
// the tree.
const lineQueued = "queued"

// headerLine is the first line of a JSONL export.
type headerLine struct {
	Type      string    `json:"type"` // always "session"
	Version   int       `json:"version"`
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Workspace string    `json:"workspace"`
	Model     string    `json:"model"`
	Created   time.Time `json:"created"`
	Leaf      string    `json:"leaf"`
	Name      string    `json:"name,omitempty"`
}

// queuedLine is an input queued on the session and not yet sent.
type queuedLine struct {
	Type   string          `json:"type"` // always lineQueued
	ID     string          `json:"id"`
	Kind   agent.QueueKind `json:"kind"`
	Text   string          `json:"text"`
	Images []agent.Content `json:"images,omitempty"`
	Time   time.Time       `json:"time"`
}

// entryLine is one entry of a JSONL export; the message is in pi's shape.
type entryLine struct {
	Type         string          `json:"type"`
	ID           string          `json:"id"`
	ParentID     string          `json:"parentId,omitempty"`
	Time         time.Time       `json:"time"`
	Message      *agent.Message  `json:"message,omitempty"`
	Context      []agent.Message `json:"context,omitempty"`
	Summary      string          `json:"summary,omitempty"`
	Label        string          `json:"label,omitempty"`
	TargetID     string          `json:"targetId,omitempty"`
	Model        string          `json:"model,omitempty"`
	Thinking     string          `json:"thinking,omitempty"`
	Approval     string          `json:"approval,omitempty"`
	Scope        string          `json:"scope,omitempty"`
	Files        int             `json:"files,omitempty"`
	FirstKeptID  string          `json:"firstKeptId,omitempty"`
	TokensBefore int             `json:"tokensBefore,omitempty"`
	TokensAfter  int             `json:"tokensAfter,omitempty"`
}

// JSONL writes s as one header line and one line per entry in tree order,
// holding everything ReadJSONL needs to rebuild it.
func JSONL(w io.Writer, s Session, r *Redactor) error {
	t, err := buildTree(s)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	h := headerLine{Type: "session", Version: Version, ID: s.ID, Title: r.String(s.Title),
		Workspace: s.Workspace, Model: s.Model, Created: s.Created, Leaf: s.Leaf, Name: r.String(s.Name)}
	if err := writeLine(bw, h); err != nil {
		return err
	}
	for _, e := range t.order {
		line := entryLine{Type: e.Type, ID: e.ID, ParentID: e.ParentID, Time: e.Time,
			Summary: r.String(e.Summary), Label: r.String(e.Label), TargetID: e.TargetID, Model: e.Model,
			Thinking: e.Thinking, Approval: e.Approval, Scope: e.Scope, Files: e.Files, FirstKeptID: e.FirstKeptID,
			TokensBefore: e.TokensBefore, TokensAfter: e.TokensAfter}
		if e.Message != nil {
			m := r.message(*e.Message)
			line.Message = &m
		}
		for _, m := range e.Context {
			line.Context = append(line.Context, r.message(m))
		}
		if err := writeLine(bw, line); err != nil {
			return fmt.Errorf("export: entry %q: %w", e.ID, err)
		}
	}
	for _, it := range s.Queue {
		q := queuedLine{Type: lineQueued, ID: it.ID, Kind: it.Kind, Text: r.String(it.Text), Images: it.Images, Time: it.Created}
		if err := writeLine(bw, q); err != nil {
			return fmt.Errorf("export: queued input %q: %w", it.ID, err)
		}
	}
	return bw.Flush()
}

func writeLine(w *bufio.Writer, v any) error {
	data, err := agent.EncodeJSON(v)
	if err != nil {
		return err
	}
	w.Write(data)
	return w.WriteByte('\n')
}

// FormatError says where and why a JSONL export could not be read.
type FormatError struct {
	Line    int
	Problem string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("export: line %d: %s", e.Line, e.Problem)
}

// maxLine bounds one JSONL line; a tool output may be large but not this.
const maxLine = 64 << 20

// ReadJSONL reads an export JSONL wrote back into a Session, failing with a
// *FormatError (with its line number) on malformed input or another version,
// or a *TreeError when the entries do not form a tree. check, when not nil,
// is asked about each entry as it is read, and its error becomes a
// *FormatError on that entry's line: a reader that can keep only some
// entries refuses the others where they are.
func ReadJSONL(rd io.Reader, check func(Entry) error) (Session, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var s Session
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes()) == 0 {
			return Session{}, &FormatError{Line: n, Problem: "empty line"}
		}
		if n == 1 {
			h, err := readHeader(sc.Bytes())
			if err != nil {
				return Session{}, &FormatError{Line: 1, Problem: err.Error()}
			}
			s = Session{ID: h.ID, Title: h.Title, Workspace: h.Workspace, Model: h.Model, Created: h.Created, Leaf: h.Leaf, Name: h.Name}
			continue
		}
		if it, ok, err := readQueued(sc.Bytes()); ok || err != nil {
			if err != nil {
				return Session{}, &FormatError{Line: n, Problem: err.Error()}
			}
			s.Queue = append(s.Queue, it)
			continue
		}
		e, err := readEntry(sc.Bytes())
		if err == nil && check != nil {
			err = check(e)
		}
		if err != nil {
			return Session{}, &FormatError{Line: n, Problem: err.Error()}
		}
		s.Entries = append(s.Entries, e)
	}
	if err := sc.Err(); err != nil {
		return Session{}, &FormatError{Line: n + 1, Problem: err.Error()}
	}
	if n == 0 {
		return Session{}, &FormatError{Line: 1, Problem: "no session header: the input is empty"}
	}
	if _, err := buildTree(s); err != nil {
		return Session{}, err
	}
	return s, nil
}

func readHeader(data []byte) (headerLine, error) {
	var h headerLine
	if err := json.Unmarshal(data, &h); err != nil {
		return h, fmt.Errorf("not a session header: %v", err)
	}
	if h.Type != "session" {
		return h, fmt.Errorf("first line has type %q, want \"session\"", h.Type)
	}
	if h.Version < minVersion || h.Version > Version {
		return h, fmt.Errorf("unsupported version %d (this steer reads versions %d to %d)", h.Version, minVersion, Version)
	}
	return h, nil
}

func readEntry(data []byte) (Entry, error) {
	var l entryLine
	if err := json.Unmarshal(data, &l); err != nil {
		return Entry{}, fmt.Errorf("not an entry: %v", err)
	}
	if !knownType(l.Type) {
		return Entry{}, fmt.Errorf("unknown entry type %q", l.Type)
	}
	if l.ID == "" {
		return Entry{}, fmt.Errorf("entry has no id")
	}
	return Entry{ID: l.ID, ParentID: l.ParentID, Type: l.Type, Message: l.Message, Context: l.Context,
		Summary: l.Summary, Label: l.Label, TargetID: l.TargetID, Model: l.Model, Thinking: l.Thinking,
		Approval: l.Approval, Scope: l.Scope, Files: l.Files, FirstKeptID: l.FirstKeptID, TokensBefore: l.TokensBefore, TokensAfter: l.TokensAfter,
		Time: l.Time}, nil
}

// readQueued reads a queued line; ok says that data is one.
func readQueued(data []byte) (it agent.QueueItem, ok bool, err error) {
	var l queuedLine
	if err := json.Unmarshal(data, &l); err != nil || l.Type != lineQueued {
		return it, false, nil // readEntry says what is wrong with it
	}
	if l.ID == "" {
		return it, true, fmt.Errorf("queued input has no id")
	}
	if l.Kind != agent.QueueSteer && l.Kind != agent.QueueFollowUp {
		return it, true, fmt.Errorf("queued input %q has kind %q, want steer or follow_up", l.ID, l.Kind)
	}
	return agent.QueueItem{ID: l.ID, Kind: l.Kind, Text: l.Text, Images: l.Images, Created: l.Time}, true, nil
}
