package mcp

import (
	"context"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server configured as "type": "http" may be an old one, speaking the
// HTTP+SSE transport of 2024-11-05. The specification's way to tell, for
// a client that supports both: POST initialize; a 400, 404 or 405 means
// the old transport, reached by a GET that opens its event stream. So a
// streamable-HTTP start refused that way is tried once more over SSE.

// methodInitialize names the request a start posts first.
const methodInitialize = "initialize"

// legacyRefusal reports whether an answer to initialize is how an old
// HTTP+SSE server refuses it.
func legacyRefusal(status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
		return true
	}
	return false
}

// connectLegacy starts x over the legacy SSE transport after its
// streamable-HTTP start (on l) was refused with failed; when that fails too,
// the first failure stands.
func (s *server) connectLegacy(ctx context.Context, x expanded, l *link, failed error) (*sdk.ClientSession, *link, error) {
	x.Transport = TransportSSE
	sl, err := s.newLink(x)
	if err != nil {
		return nil, l, failed
	}
	cs, err := newClient(s).Connect(ctx, sl.transport, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		return nil, l, failed
	}
	s.o.logger().Info("mcp server refused streamable HTTP; it speaks the legacy HTTP+SSE transport", "server", s.cfg.Name)
	return cs, sl, nil
}

// sseTransport is the SDK's legacy SSE client transport with the life of
// its event stream freed from the start's timeout: the SDK opens the
// stream with the context it connects with, and steer connects under a
// timeout that ends once the start is done, which would end the stream
// with it. The timeout still bounds opening the stream.
type sseTransport struct{ inner *sdk.SSEClientTransport }

func (t sseTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, end)
	conn, err := t.inner.Connect(life)
	if !stop() { // the start's bound ran out while the stream opened
		if conn != nil {
			_ = conn.Close()
		}
		end()
		return nil, context.Cause(ctx)
	}
	if err != nil {
		end()
		return nil, err
	}
	return endingConn{Connection: conn, end: end}, nil
}

// endingConn ends its stream's context when it is closed.
type endingConn struct {
	sdk.Connection
	end context.CancelFunc
}

func (c endingConn) Close() error {
	err := c.Connection.Close()
	c.end()
	return err
}
