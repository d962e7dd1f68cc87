package chat

import (
	gansi "github.com/charmbracelet/glamour/ansi"
	"github.com/muesli/termenv"
)

// RenderMarkdown is src rendered at width in style, as the transcript
// renders an answer, for a dialog that shows Markdown (a plan): its lines,
// sanitised. It builds renderers of its own, so it is for a text shown
// once, not for a stream.
func RenderMarkdown(src string, width int, style gansi.StyleConfig, profile termenv.Profile) []string {
	return newMarkdown(max(width, 1), style, style, profile).render(src, false)
}
