package theme

import (
	"reflect"
	"testing"
)

func TestNewStylesIsPure(t *testing.T) {
	for _, th := range []Theme{Dark(), Light(), Plain()} {
		if !reflect.DeepEqual(NewStyles(th), NewStyles(th)) {
			t.Errorf("%s: two builds of the same theme differ", th.Name)
		}
		if th.Markdown.Document.Margin == nil || *th.Markdown.Document.Margin != 0 {
			t.Errorf("%s: markdown keeps a document margin", th.Name)
		}
		if Fast(th.Markdown).CodeBlock.Chroma != nil {
			t.Errorf("%s: the fast style still highlights code", th.Name)
		}
	}
}
