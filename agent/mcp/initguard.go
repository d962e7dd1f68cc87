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

// initGuard says whether initialize has been answered.
type initGuard struct{ done atomic.Bool }

// initialized marks initialize answered: cancellations pass from now on.
func (g *initGuard) initialized() { g.done.Store(true) }

// dropsPost reports whether req is a cancellation to drop, reading its
// body only before initialize was answered.
func (g *initGuard) dropsPost(req *http.Request) (bool, error) {
	if g == nil || g.done.Load() || req.Method != http.MethodPost || req.Body == nil {
		return false, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return false, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return false, nil // the server's to refuse
	}
	r, ok := msg.(*jsonrpc.Request)
	return ok && r.Method == methodCancelled, nil
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
