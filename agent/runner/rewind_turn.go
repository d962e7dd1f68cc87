package runner

import (
	"fmt"
	"strconv"
	"strings"
)

// RewindScope is what a rewind takes back.
type RewindScope string

// The scopes of a rewind; the zero value is RewindBoth.
const (
	RewindBoth         RewindScope = "both"
	RewindCode         RewindScope = "code"
	RewindConversation RewindScope = "conversation"
)

// ScopeOf is the scope that the flags --code and --conversation (or the
// rpc's "code" and "conversation") ask for: neither is both, one is itself;
// both at once is a mistake, since the default already means both.
func ScopeOf(code, conversation bool) (RewindScope, error) {
	switch {
	case code && conversation:
		return "", fmt.Errorf("--code and --conversation exclude each other: without either, both are rewound")
	case code:
		return RewindCode, nil
	case conversation:
		return RewindConversation, nil
	}
	return RewindBoth, nil
}

func (s RewindScope) code() bool         { return s != RewindConversation }
func (s RewindScope) conversation() bool { return s != RewindCode }

// turnInfo is one turn of the session's path: a user message, its 1-based
// index among the path's user messages and its entry's sequence number.
type turnInfo struct {
	index, seq int
	prompt     string
}

// resolveTurn finds the turn ref names among turns (oldest first): "N" is
// the N-th turn or the turn whose user message is entry N, which must not
// name two different turns; "turn:N" is only the index, "id:N" only the
// entry. It returns the turn's position in turns.
func resolveTurn(turns []turnInfo, ref string) (int, error) {
	kind, num, explicit := strings.Cut(strings.TrimSpace(ref), ":")
	if !explicit {
		kind, num = "", kind
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || kind != "" && kind != "turn" && kind != "id" {
		return 0, turnErrorf("bad turn %q: want its index (1 is the first turn), turn:N or id:ENTRY", ref)
	}
	if len(turns) == 0 {
		return 0, turnErrorf("the session has no turns to rewind to")
	}
	byIndex, byID := -1, -1
	if n <= len(turns) {
		byIndex = n - 1
	}
	for i, t := range turns {
		if t.seq == n {
			byID = i
		}
	}
	switch {
	case kind == "turn" && byIndex < 0, kind == "" && byIndex < 0 && byID < 0:
		return 0, turnErrorf("no turn %d: the session has %d", n, len(turns))
	case kind == "id" && byID < 0:
		return 0, turnErrorf("entry %d is not a user message of the session's current branch", n)
	case kind == "turn":
		return byIndex, nil
	case kind == "id", byIndex < 0:
		return byID, nil
	case byID >= 0 && byID != byIndex:
		return 0, turnErrorf("turn %d is ambiguous: turn:%d is entry %d, id:%d is turn %d; say which", n, n, turns[byIndex].seq, n, byID+1)
	}
	return byIndex, nil
}

// TurnError says a TURN names no turn of the session, or two: a mistake of
// the caller's (exit status 2 for `steer rewind`).
type TurnError struct{ msg string }

func (e *TurnError) Error() string { return e.msg }

func turnErrorf(format string, args ...any) error { return &TurnError{fmt.Sprintf(format, args...)} }
