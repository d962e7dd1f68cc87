package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// The fake language server: this test binary run again with fakeEnv set to
// a mode serves LSP on stdin/stdout with the server side of the same
// library. Its diagnostics come from the text: a line holding ERROR is an
// error there, WARN a warning, HINT a hint.

const fakeEnv = "STEER_LSP_FAKE"

// The modes of the fake server.
const (
	modeOK        = "ok"        // versioned publications
	modeNoVersion = "noversion" // publications without versions
	modeStale     = "stale"     // each change first gets a stale publication
	modeSilent    = "silent"    // never publishes
	modeHang      = "hang"      // never answers initialize
	modeGarbage   = "garbage"   // answers a didChange with bytes that are not LSP
	modeCrash     = "crash"     // exits 3 on a didChange, saying why on stderr
	modeDeaf      = "deaf"      // stops reading its input after initialized
	modeAsks      = "asks"      // asks for its configuration before answering initialize
)

// maybeServe serves as the fake server when the environment asks for it,
// then exits.
func maybeServe() {
	mode := os.Getenv(fakeEnv)
	if mode == "" {
		return
	}
	f := &fake{mode: mode, done: make(chan struct{})}
	stream := jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(context.Background(), stream, fakeHandler{jsonrpc2.HandlerWithError(f.handle)})
	select {
	case <-conn.DisconnectNotify():
	case <-f.done:
	}
	os.Exit(0)
}

// fakeHandler handles initialize on a goroutine of its own, so that it can
// call the client (modeAsks) or never answer (modeHang), and everything
// else in order, as a server must.
type fakeHandler struct{ h jsonrpc2.Handler }

func (f fakeHandler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Method == "initialize" {
		go f.h.Handle(ctx, conn, req)
		return
	}
	f.h.Handle(ctx, conn, req)
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

type fake struct {
	mode string
	done chan struct{}
}

func (f *fake) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int    `json:"version"`
			Text    string `json:"text"`
		} `json:"textDocument"`
		ContentChanges []struct {
			Text string `json:"text"`
		} `json:"contentChanges"`
	}
	if req.Params != nil {
		_ = json.Unmarshal(*req.Params, &p)
	}
	switch req.Method {
	case "initialize":
		switch f.mode {
		case modeHang:
			<-ctx.Done()
			return nil, ctx.Err()
		case modeAsks:
			var settings []any
			if err := conn.Call(ctx, "workspace/configuration", map[string]any{"items": []any{map[string]string{"section": "fake"}}}, &settings); err != nil || len(settings) != 1 {
				return nil, fmt.Errorf("configuration: %v %v", settings, err)
			}
		}
		return map[string]any{"capabilities": map[string]any{"textDocumentSync": 1}}, nil
	case "initialized":
		if f.mode == modeDeaf {
			<-time.After(time.Hour) // reads nothing more (a timer, not select{}, which the runtime would call a deadlock)
		}
	case "shutdown":
		return nil, nil
	case "exit":
		close(f.done)
	case "textDocument/didOpen":
		f.publish(ctx, conn, p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
	case "textDocument/didChange":
		switch f.mode {
		case modeGarbage:
			os.Stdout.WriteString("this is not LSP\r\n\r\n")
			return nil, nil
		case modeCrash:
			fmt.Fprintln(os.Stderr, "fake: crashing on a change")
			os.Exit(3)
		case modeStale:
			f.publish(ctx, conn, p.TextDocument.URI, p.TextDocument.Version-1, "ERROR stale\n")
		}
		f.publish(ctx, conn, p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges[0].Text)
	}
	return nil, nil
}

// publish sends the diagnostics of text, as the mode publishes them.
func (f *fake) publish(ctx context.Context, conn *jsonrpc2.Conn, uri string, version int, text string) {
	if f.mode == modeSilent {
		return
	}
	diags := []map[string]any{}
	for i, line := range strings.Split(text, "\n") {
		for word, sev := range map[string]int{"ERROR": 1, "WARN": 2, "HINT": 4} {
			if col := strings.Index(line, word); col >= 0 {
				diags = append(diags, map[string]any{"severity": sev, "source": "fake", "message": strings.TrimSpace(line),
					"range": map[string]any{"start": map[string]int{"line": i, "character": col}, "end": map[string]int{"line": i, "character": col + len(word)}}})
			}
		}
	}
	params := map[string]any{"uri": uri, "diagnostics": diags}
	if f.mode != modeNoVersion {
		params["version"] = version
	}
	_ = conn.Notify(ctx, "textDocument/publishDiagnostics", params)
}

var _ io.ReadWriteCloser = stdio{}

// fakeTimeout bounds each wait of the tests: long enough for a loaded
// machine, short enough that a test that fails does so quickly.
const fakeTimeout = 10 * time.Second
