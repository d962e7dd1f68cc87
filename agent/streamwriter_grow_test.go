package agent

import (
	"strings"
	"testing"
)

// TestBlockTextGrowsByDoubling streams an 80 KB answer into a block in small
// pieces and counts how often its buffer is reallocated: doubling takes 13,
// append's smaller steps for large buffers 23.
func TestBlockTextGrowsByDoubling(t *testing.T) {
	const answer = 80 << 10
	const maxGrows = 16
	for _, piece := range []int{1, 4, 64, 3000} {
		var b blockBuilder
		s := strings.Repeat("x", piece)
		grows := 0
		for b.text.Len() < answer {
			before := b.text.Cap()
			b.write(s)
			if b.text.Cap() != before {
				grows++
			}
		}
		if grows > maxGrows {
			t.Errorf("%d-byte pieces: the buffer grew %d times for %d bytes, want at most %d", piece, grows, b.text.Len(), maxGrows)
		}
		if got := b.text.String(); len(got) != b.text.Len() || strings.Trim(got, "x") != "" {
			t.Errorf("%d-byte pieces: text corrupted", piece)
		}
	}
}

// TestClosedBlockTextIsTrimmed closes blocks whose buffers doubling left
// half empty, and blocks already snug: afterwards no buffer keeps more spare
// than a quarter of its text or trimSpare, and the text is unchanged.
func TestClosedBlockTextIsTrimmed(t *testing.T) {
	for _, size := range []int{0, 1, 100, 40 << 10, 65 << 10, 80 << 10} {
		var b blockBuilder
		for b.text.Len() < size {
			b.write("x")
		}
		want := b.text.String()
		b.trim()
		if got := b.text.String(); got != want {
			t.Errorf("%d bytes: text changed", size)
		}
		if c := b.text.Cap(); c-size > max(size/4, trimSpare) {
			t.Errorf("%d bytes: capacity %d after trim", size, c)
		}
	}
}
