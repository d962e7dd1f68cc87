// Package chat is the transcript view: user messages, assistant markdown as
// it streams, thinking, tool blocks with their live output, and notices, in
// a virtualised, scrollable list.
//
// # Rendering
//
// Every item caches its rendered lines for one width; a finished item is
// rendered once per width and then only read. compose, called from Update,
// walks items from the anchor of the view (the bottom while following) and
// renders only the ones it reaches, so a frame costs the same with ten
// messages or ten thousand; View returns the joined result.
//
// # Streaming markdown
//
// An assistant message that is still arriving is split at safe boundaries
// (a blank line outside fences, lists, quotes and HTML) into finished
// blocks, each rendered once, and the open block after them, re-rendered
// with a Glamour renderer that skips syntax highlighting. When the message
// ends, one exact render of the whole text replaces the pieces.
//
// # Scrolling and selection
//
// The view follows new output until the user scrolls up; then new output
// shows a "↓ new output" hint instead of moving the view. With the focus,
// the arrow keys select tool and thinking blocks and Enter expands or
// collapses the selected one.
//
// Every string from a model or a tool is sanitised (tui/sanitize) before it
// is styled.
package chat
