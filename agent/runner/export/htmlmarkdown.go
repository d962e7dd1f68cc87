package export

import (
	"bytes"
	"html"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// md renders transcript Markdown. goldmark's default (unsafe off) replaces
// raw HTML with a comment, so transcript text cannot inject markup; the
// offline renderer below turns links and images into text and highlights
// code.
// It is built on first use: package initialisation runs in every steer
// process, and only an export needs it.
var md = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(offline{}, 100))),
	)
})

// renderMarkdown returns src as HTML, falling back to escaped text.
func renderMarkdown(src string) string {
	var b bytes.Buffer
	if err := md().Convert([]byte(src), &b); err != nil {
		return "<pre>" + html.EscapeString(src) + "</pre>"
	}
	return b.String()
}

// offline renders the nodes that could reach the network (links, images)
// as text, and code blocks highlighted with inline styles.
type offline struct{}

func (offline) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, renderLink)
	reg.Register(ast.KindAutoLink, renderAutoLink)
	reg.Register(ast.KindImage, renderImage)
	reg.Register(ast.KindFencedCodeBlock, renderCode)
	reg.Register(ast.KindCodeBlock, renderCode)
}

func renderLink(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString(`<span class="link">`)
		return ast.WalkContinue, nil
	}
	w.WriteString(`</span> <span class="url">(` + html.EscapeString(string(n.(*ast.Link).Destination)) + `)</span>`)
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString(`<span class="url">` + html.EscapeString(string(n.(*ast.AutoLink).URL(src))) + `</span>`)
	}
	return ast.WalkSkipChildren, nil
}

func renderImage(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString(`<span class="img">[image: `)
		return ast.WalkContinue, nil
	}
	w.WriteString(`] <span class="url">(` + html.EscapeString(string(n.(*ast.Image).Destination)) + `)</span></span>`)
	return ast.WalkContinue, nil
}

func renderCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var code strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(src))
	}
	w.WriteString(highlight(code.String(), lang))
	return ast.WalkSkipChildren, nil
}

// highlight returns code as highlighted HTML with inline styles, or escaped
// in a <pre> when no lexer fits.
func highlight(code, lang string) string {
	lexer := lexers.Get(lang)
	if lexer == nil {
		lexer = lexers.Analyse(code)
	}
	if lexer == nil {
		return `<pre class="code">` + html.EscapeString(code) + `</pre>`
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return `<pre class="code">` + html.EscapeString(code) + `</pre>`
	}
	var b bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(false), chromahtml.TabWidth(4))
	if err := f.Format(&b, styles.Get("github"), it); err != nil {
		return `<pre class="code">` + html.EscapeString(code) + `</pre>`
	}
	return b.String()
}
