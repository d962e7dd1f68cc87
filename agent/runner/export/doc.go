// Package export writes a session's transcript tree for people and machines —
// a self-contained HTML page, Markdown for pasting and JSONL that ReadJSONL
// reads back — redacting secrets in every string it writes.
//
// # Input
//
// Session and Entry are this package's own view of a session, so that it
// depends on nothing but agent: entries form a tree by ParentID and the path
// root → Leaf is the current branch. Every writer validates the tree first
// (unique ids, known parents, no cycles, a known leaf) and returns a
// *TreeError instead of writing half a page.
//
// # Redaction
//
// A Redactor replaces known secret values and recognisable token shapes with
// [redacted] at write time and counts what it replaced. Opaque provider blobs
// (thinking signatures, image data) are written as they are: they are base64
// payloads a resumed session must send back byte for byte.
//
// # No network
//
// The HTML page loads nothing: styles and its one script are inline, a
// Content-Security-Policy forbids every fetch, images are data: URLs, and
// links in rendered Markdown become plain text.
//
// The page was checked by hand in headless Chromium (not in a Go test, which
// must not depend on a browser): write a page, then
//
//	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
//	  --disable-background-networking --disable-component-update --disable-sync \
//	  --user-data-dir=$(mktemp -d) --enable-logging=stderr --v=0 \
//	  --log-net-log=net.json --dump-dom file://$PWD/page.html
//
// and expect no "CONSOLE" line on stderr and, in net.json, only the URLs
// Chromium itself fetches for about:blank too. Editing the saved page so
// that another branch's <option> is selected and dumping again shows the
// script hiding the current branch and showing that one.
package export
