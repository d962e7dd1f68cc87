package msgs

// CopyMsg asks to copy Text (Markdown) to the clipboard; What names it for
// the confirmation ("the last answer", "the bash call").
type CopyMsg struct {
	Text, What string
}

// EmitSequenceMsg asks to write Seq, an escape sequence that draws nothing
// (a notification, a clipboard write), to the terminal between two frames.
type EmitSequenceMsg struct{ Seq string }
