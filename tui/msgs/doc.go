// Package msgs holds the messages that cross TUI components, one file per
// domain. A request is named in the imperative (AbortRunMsg, SetModelMsg) and
// asks the root to act; a fact is named in the past tense (SessionLoadedMsg,
// ItemsTakenBackMsg) and reports what happened. Messages private to one
// component are declared in that component instead.
//
// Keys, slash commands and pickers all emit these same requests, so each
// action has exactly one handler (in package tui).
package msgs
