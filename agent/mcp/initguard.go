package mcp

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The specification forbids a client to cancel initialize. A server that
// does not answer it in time is given up (connect's timeout), and the SDK
// then sends notifications/cancelled for the request as for any other; so
// until initialize has been answered the link drops that notification —
// initialize is the only request a client has in flight by then. Over
// HTTP it is dropped in the link's round tripper (the streamable
// connection cannot be wrapped: the SDK talks to it through an unexported
// interface), over stdio in the connection.

const methodCancelled = "notifications/cancelled"

// initGuard says whether initialize has been answered, and whether a
// streamable-HTTP server refused it as an old HTTP+SSE server does
// (legacy.go).
type initGuard struct {
	done    atomic.Bool
	refused atomic.Bool
}

// initialized marks initialize answered: cancellations pass from now on.
func (g *initGuard) initialized() { g.done.Store(true) }

// earlyMethod is the JSON-RPC method req posts before initialize was
// answered, reading its body only then; "" for any other request.
func (g *initGuard) earlyMethod(req *http.Request) (string, error) {
	if g == nil || g.done.Load() || req.Method != http.MethodPost || req.Body == nil {
		return "", nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return "", err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return "", nil // the server's to refuse
	}
	if r, ok := msg.(*jsonrpc.Request); ok {
		return r.Method, nil
	}
	return "", nil
}

// sawInitialize notes the server's answer to initialize.
func (g *initGuard) sawInitialize(status int) {
	if legacyRefusal(status) {
		g.refused.Store(true)
	}
}

// accepted is the answer a server gives a notification, for one dropped.
func accepted(req *http.Request) *http.Response {
	return &http.Response{StatusCode: http.StatusAccepted, Status: "202 Accepted", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: http.NoBody, Request: req}
}

// guardedConn is a stdio connection that drops cancellations until
// initialize was answered.
type guardedConn struct {
	sdk.Connection
	g *initGuard
}

func (c guardedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == methodCancelled && !c.g.done.Load() {
		return nil
	}
	return c.Connection.Write(ctx, msg)
}
