package llmhttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
)

// maxErrorRead bounds how much of an error response is read at all; only
// agent.MaxErrorBody of it is kept on the error.
const maxErrorRead = 64 << 10

// Exchange is the HTTP side of one streaming request. Start it before the
// request, run the request under Context with Middleware installed, and Stop
// it when the stream is over.
//
// The watchdog (the embedded Watchdog) is armed at Start and re-armed by
// Stream after every item that carries progress, not after bytes. SSE
// comments and pings, which servers keep sending while stalled upstream,
// never reach Stream (the SDKs skip them) and so do not keep a stalled
// response alive; the body counts them (Watchdog.KeepAlive) for the
// timeout's message. When it fires it cancels Context with an
// *IdleTimeoutError as the cause, so that a watchdog cancel can be told from
// the caller's.
//
// Apart from the timer's own goroutine, which only cancels, an Exchange is
// used by the one goroutine that makes the request and reads the stream: the
// SDKs call the middleware and read the body on the caller's goroutine.
type Exchange struct {
	*Watchdog

	status       int
	header       map[string][]string
	errBody      []byte
	transportErr error
	readErr      error
	tail         []byte
	// head is the first agent.MaxErrorBody bytes of a success's body, and
	// read how many bytes of it were read in all: they tell a body that is
	// not an event stream (NotEventStream). url is the request's, without
	// its query or user info, to name the server in that message.
	head []byte
	read int
	url  string

	// beforeRead runs before each read of the body, which may wait for the
	// network (see OnRead).
	beforeRead func()
}

// OnRead makes f run before each read of the response's body, on the
// reading goroutine: Stream flushes the deltas its writer holds there, so
// that none waits on the network unseen.
func (x *Exchange) OnRead(f func()) { x.beforeRead = f }

// Start arms the watchdog for a request of provider made under parent, on
// clock (nil: RealClock); w.Idle must be positive.
func Start(parent context.Context, provider string, w Windows, clock Clock) *Exchange {
	return &Exchange{Watchdog: NewWatchdog(parent, provider, w, clock)}
}

// Header is the response's headers (see agent.ProviderError.Header), nil
// before one arrived.
func (x *Exchange) Header() map[string][]string { return x.header }

// Status is the response's HTTP status, 0 before one arrived.
func (x *Exchange) Status() int { return x.status }

// Tail is the last agent.MaxErrorBody bytes of the stream read so far, for
// the body excerpt of a malformed or empty stream.
func (x *Exchange) Tail() string {
	t := x.tail
	if len(t) > agent.MaxErrorBody {
		t = t[len(t)-agent.MaxErrorBody:]
	}
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	return string(t)
}

// Middleware has the shape of both SDKs' option.Middleware. It records the
// status and headers, reads an error response's body (bounded) so that it is
// kept however the SDK parses it, and wraps a success's body so that reads
// feed the tail and count keep-alives.
func (x *Exchange) Middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	if req != nil && req.URL != nil {
		u := *req.URL
		u.User, u.RawQuery, u.Fragment = nil, "", ""
		x.url = u.String()
	}
	resp, err := next(req)
	if err != nil {
		x.transportErr = err
		return resp, err
	}
	x.status = resp.StatusCode
	x.header = keptHeader(resp.Header)
	if resp.StatusCode >= 400 {
		body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxErrorRead))
		_ = resp.Body.Close()
		if rerr != nil {
			x.readErr = rerr
		}
		x.errBody = body
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return resp, nil
	}
	resp.Body = &watchedBody{x: x, rc: resp.Body}
	return resp, nil
}

// Failure turns err, which ended the exchange, into the kernel's error, for
// every failure that is not the provider's own error event: the watchdog, an
// HTTP status, the transport, and — when none of those — data the SDK could
// not parse. A failure caused by the caller's cancel is reported too; the
// stream writer turns it into stopReason aborted.
func (x *Exchange) Failure(err error) *agent.ProviderError {
	switch {
	case x.TimedOut():
		return x.WithHeader(x.IdleFailure())
	case x.status >= 400:
		return x.WithHeader(HTTPError(x.status, x.errBody))
	case x.parent.Err() != nil:
		return &agent.ProviderError{Kind: agent.ErrorNetwork, Message: "request cancelled"}
	case x.transportErr != nil:
		return transportError(x.provider, x.transportErr)
	case x.readErr != nil: // err may be the SDK's view of the cut-off data
		return transportError(x.provider, x.readErr)
	default:
		return &agent.ProviderError{Kind: agent.ErrorMalformed,
			Message: fmt.Sprintf("cannot parse the stream from %s: %v", x.provider, err),
			Body:    x.Tail()}
	}
}

// WithHeader gives an error the response's headers, when a response
// arrived: a Retry-After travels with it, and a timeout after the headers
// reads as one that reached the provider.
func (x *Exchange) WithHeader(e *agent.ProviderError) *agent.ProviderError {
	if e.Header == nil {
		e.Header = x.header
	}
	return e
}

// keptHeader is what an error keeps of a response's headers: all of them
// but cookies, which are nobody's business in an error.
func keptHeader(h http.Header) map[string][]string {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	out.Del("Set-Cookie")
	return out
}

// transportError reports a failure to connect or to read.
func transportError(provider string, err error) *agent.ProviderError {
	if e, ok := connectFailure(provider, err); ok {
		return e
	}
	kind := agent.ErrorNetwork
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		kind = agent.ErrorTimeout
	}
	return &agent.ProviderError{Kind: kind, Message: fmt.Sprintf("%s: %v", provider, err)}
}

// watchedBody feeds the tail from every read, and ends
// the stream with a blank line when the server did not: a final event that
// the server wrote without its closing blank line (it sent an error event
// and closed the connection) is then still dispatched by the SDK's SSE
// decoder, which drops an unterminated event at the end of the body.
type watchedBody struct {
	x  *Exchange
	rc io.ReadCloser

	// The shape of the body's end: whether anything was read, the length of
	// the line still open, whether it is a lone "\r" so far, and whether the
	// last complete line was blank.
	any       bool
	open      int
	openCR    bool
	lastBlank bool
	// head is the start of the open line, enough to tell a keep-alive.
	head []byte

	end  error  // what ended the body, returned once rest is handed out
	rest []byte // what is left of the missing terminator
}

func (b *watchedBody) Read(p []byte) (int, error) {
	if b.end != nil {
		if len(b.rest) == 0 || len(p) == 0 {
			return 0, b.end
		}
		n := copy(p, b.rest)
		b.rest = b.rest[n:]
		return n, nil
	}
	if f := b.x.beforeRead; f != nil {
		f()
	}
	n, err := b.rc.Read(p)
	if n > 0 {
		b.x.keepHead(p[:n])
		b.x.keepTail(p[:n])
		b.track(p[:n])
	}
	if err != nil {
		if err != io.EOF {
			b.x.readErr = err
		}
		b.end, b.rest = err, b.terminator()
		if n == 0 {
			return b.Read(p)
		}
	}
	return n, nil
}

// pingLine is the line that opens Anthropic's ping event; the SDK drops
// the event.
const pingLine = "event: ping"

// track follows the lines of p, as the SDKs' decoders split them (at "\n",
// dropping a "\r" before it), and counts the keep-alives among them: SSE
// comments (": keep-alive", ": OPENROUTER PROCESSING") and ping events.
func (b *watchedBody) track(p []byte) {
	b.any = true
	for len(p) > 0 {
		line, rest, ended := bytes.Cut(p, []byte("\n"))
		if len(line) > 0 {
			if b.open == 0 {
				b.openCR = line[0] == '\r'
			}
			if room := len(pingLine) + 1 - len(b.head); room > 0 {
				b.head = append(b.head, line[:min(room, len(line))]...)
			}
			b.open += len(line)
		}
		if !ended {
			return
		}
		b.lastBlank = b.open == 0 || b.open == 1 && b.openCR
		if b.keepAliveLine() {
			b.x.KeepAlive()
		}
		b.open, b.head = 0, b.head[:0]
		p = rest
	}
}

// keepAliveLine reports whether the line just ended is a comment or the
// ping event's first line.
func (b *watchedBody) keepAliveLine() bool {
	head := string(b.head)
	switch {
	case strings.HasPrefix(head, ":"):
		return true
	case b.open == len(pingLine):
		return head == pingLine
	case b.open == len(pingLine)+1:
		return head == pingLine+"\r"
	}
	return false
}

// terminator is what the body lacks to end with a blank line: nothing for
// an empty body or one that ends with a blank line, one "\n" after a
// complete line, two after an open one.
func (b *watchedBody) terminator() []byte {
	switch {
	case !b.any || b.open == 0 && b.lastBlank:
		return nil
	case b.open == 0:
		return []byte("\n")
	default:
		return []byte("\n\n")
	}
}

func (b *watchedBody) Close() error { return b.rc.Close() }

// keepHead counts p and keeps it while the head is shorter than
// agent.MaxErrorBody.
func (x *Exchange) keepHead(p []byte) {
	x.read += len(p)
	if room := agent.MaxErrorBody - len(x.head); room > 0 {
		x.head = append(x.head, p[:min(room, len(p))]...)
	}
}

// keepTail appends p to the tail, compacting to the last MaxErrorBody bytes
// whenever it has grown to twice that.
func (x *Exchange) keepTail(p []byte) {
	const keep = agent.MaxErrorBody
	if len(p) >= keep {
		x.tail = append(x.tail[:0], p[len(p)-keep:]...)
		return
	}
	if len(x.tail)+len(p) > 2*keep {
		n := copy(x.tail, x.tail[len(x.tail)-(keep-len(p)):])
		x.tail = x.tail[:n]
	}
	x.tail = append(x.tail, p...)
}

// WithTail gives an error found in the stream's content the end of the
// stream as its body excerpt, unless it has a body already.
func (x *Exchange) WithTail(e *agent.ProviderError) *agent.ProviderError {
	if e.Body == "" {
		e.Body = x.Tail()
	}
	return e
}
