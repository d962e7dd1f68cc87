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
