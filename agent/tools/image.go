package tools

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
)

// maxImageBytes is the largest image read sends; the providers refuse
// larger ones (Anthropic's limit is 5 MB).
const maxImageBytes = 5 << 20

// imageMagic maps the first bytes of the image formats the providers accept
// to their MIME type.
var imageMagic = []struct {
	prefix, mime string
	at           int
}{
	{"\x89PNG\r\n\x1a\n", "image/png", 0},
	{"\xff\xd8\xff", "image/jpeg", 0},
	{"GIF87a", "image/gif", 0},
	{"GIF89a", "image/gif", 0},
	{"WEBP", "image/webp", 8}, // after "RIFF" and the size
}

// imageType returns the MIME type of the image that head starts, or "".
func imageType(head []byte) string {
	for _, m := range imageMagic {
		if len(head) >= m.at+len(m.prefix) && bytes.Equal(head[m.at:m.at+len(m.prefix)], []byte(m.prefix)) {
			if m.mime == "image/webp" && !bytes.HasPrefix(head, []byte("RIFF")) {
				continue
			}
			return m.mime
		}
	}
	return ""
}

// readImage returns the image in r as image content after a line saying
// what it is.
func readImage(r io.Reader, path, mime string, size int64) agent.ToolResult {
	if size > maxImageBytes {
		return agent.ErrorResult(fmt.Sprintf("%s is an image (%s) of %s, more than the %s an image may have",
			path, mime, humanize.Bytes(size), humanize.Bytes(maxImageBytes)))
	}
	data, err := io.ReadAll(io.LimitReader(r, maxImageBytes+1))
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("cannot read %s: %v", path, err))
	}
	if len(data) > maxImageBytes { // it grew since it was measured
		return agent.ErrorResult(fmt.Sprintf("%s is an image (%s) of more than %s", path, mime, humanize.Bytes(maxImageBytes)))
	}
	return agent.ToolResult{
		Content: []agent.Content{
			agent.Text(fmt.Sprintf("Read image file %s [%s, %s]", path, mime, humanize.Bytes(int64(len(data))))),
			{Type: agent.ContentImage, MimeType: mime, Data: base64.StdEncoding.EncodeToString(data)},
		},
		Details: ReadDetails{Path: path},
	}
}

// MaxImageBytes is the largest image the providers accept.
const MaxImageBytes = maxImageBytes

// ImageType returns the MIME type of the image whose file starts with head
// (its first 16 bytes are enough), or "" when it is none the providers
// accept.
func ImageType(head []byte) string { return imageType(head) }
