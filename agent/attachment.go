package agent

// Attachment names the file or directory a block of a user message was read
// from, so that a front end can show the block as a chip ("📎 README.md ·
// 2.1 KB") while the model sees its content, and show the same chip when the
// session is loaded again.
type Attachment struct {
	// Path is as the user gave it: relative to the workspace, or absolute
	// for a file outside it (a pasted screenshot).
	Path string
	// Size is the file's size in bytes, all of it even when the block holds
	// only its start; a directory's is its number of entries.
	Size int64
	// Dir marks a directory, whose block is a listing.
	Dir bool
}

// Valid reports whether a names a file: whether the block was attached.
func (a Attachment) Valid() bool { return a.Path != "" }

// Typed returns the text the user typed in m: its text blocks that were not
// attached from a file, joined. A user message's attachments are its other
// blocks (see Attached).
func (m Message) Typed() string {
	var s string
	for _, c := range m.Content {
		if c.Type == ContentText && !c.Attached.Valid() {
			s += c.Text
		}
	}
	return s
}

// Attached returns the attachments of m's blocks, in order.
func (m Message) Attached() []Attachment {
	var out []Attachment
	for _, c := range m.Content {
		if c.Attached.Valid() {
			out = append(out, c.Attached)
		}
	}
	return out
}
