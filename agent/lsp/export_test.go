package lsp

// Tail is the stderr tail, for the external tests.
type Tail = tail

// NewTailForTest makes an empty tail.
func NewTailForTest() *Tail { return &tail{} }

// Last and Brief are last and brief.
func (t *tail) Last(n int) []string  { return t.last(n) }
func (t *tail) Brief(n int) []string { return t.brief(n) }
