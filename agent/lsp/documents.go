package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// handler answers what the server sends: its diagnostics, and the few
// requests a server makes of any client.
func (s *server) handler(gen int) func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) {
	return func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		switch req.Method {
		case "textDocument/publishDiagnostics":
			var p publishParams
			if req.Params != nil && json.Unmarshal(*req.Params, &p) == nil {
				s.publish(gen, p)
			}
			return nil, nil
		case "workspace/configuration":
			var p configurationParams
			if req.Params != nil {
				_ = json.Unmarshal(*req.Params, &p)
			}
			return make([]any, len(p.Items)), nil // no settings: the server's defaults
		case "workspace/workspaceFolders":
			return []workspaceFolder{{URI: fileURI(s.dir), Name: s.dir}}, nil
		case "workspace/applyEdit":
			return map[string]bool{"applied": false}, nil
		case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create",
			"window/showMessageRequest", "window/showDocument":
			return nil, nil
		}
		if req.Notif {
			return nil, nil // logs, progress, telemetry
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "steer does not handle " + req.Method}
	}
}

// publish keeps a publication and wakes the waiters.
func (s *server) publish(gen int, p publishParams) {
	path := pathOf(p.URI)
	if path == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen {
		return
	}
	s.seq++
	s.published[path] = publication{version: p.Version, seq: s.seq, at: time.Now(), diags: diagnosticsOf(path, p.Diagnostics)}
	s.broadcast()
}

// covers says pub is of doc's text: of its version or later, or, from a
// server that publishes without versions, sent after it.
func (pub publication) covers(doc *document) bool {
	if pub.version != nil {
		return *pub.version >= doc.version
	}
	return pub.seq > doc.sentSeq
}

// sync gives the server text as path's content, saved when save is set
// (after a write or an edit), and waits for the diagnostics it publishes
// for it. A text the server already has is not sent again: what it
// published for it, if it has, is the answer at once.
func (s *server) sync(ctx context.Context, path, text string, save bool) Report {
	r := Report{Server: s.name(), Path: path}
	waited, err := s.ensure(ctx)
	if err != nil {
		return r.failed(err)
	}
	s.send.Lock()
	s.mu.Lock()
	if waited {
		r.Started = s.startTook
	}
	if s.state != StateReady {
		err := s.errLocked()
		s.mu.Unlock()
		s.send.Unlock()
		return r.failed(err)
	}
	gen, exited, conn := s.gen, s.exited, s.conn
	doc, opened := s.open[path]
	var method string
	var params any
	switch {
	case !opened:
		doc = &document{version: 1, text: text, sentSeq: s.seq}
		s.open[path] = doc
		method, params = "textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: fileURI(path),
			LanguageID: languageID(path), Version: doc.version, Text: text}}
	case doc.text != text:
		doc.version, doc.text, doc.sentSeq = doc.version+1, text, s.seq
		method, params = "textDocument/didChange", didChangeParams{TextDocument: textDocumentID{URI: fileURI(path),
			Version: doc.version}, ContentChanges: []contentChange{{Text: text}}}
	}
	want := *doc
	r.Bound = s.t.publish
	if s.fresh {
		r.Bound, s.fresh = s.t.start, false
	}
	s.mu.Unlock()
	sent := time.Now()
	if method != "" {
		err = s.notify(gen, exited, conn, method, params)
	}
	if err == nil && save {
		err = s.notify(gen, exited, conn, "textDocument/didSave", didSaveParams{TextDocument: textDocumentID{URI: fileURI(path)}})
	}
	s.send.Unlock()
	if err != nil {
		return r.failed(s.errOf())
	}
	return s.await(ctx, r, &want, sent)
}

// await waits until the server publishes diagnostics covering doc, fails,
// or r.Bound passes after sent.
func (s *server) await(ctx context.Context, r Report, doc *document, sent time.Time) Report {
	timer := time.NewTimer(time.Until(sent.Add(r.Bound)))
	defer timer.Stop()
	for {
		s.mu.Lock()
		pub, ok := s.published[r.Path]
		state, changed := s.state, s.changed
		var err error
		if state != StateReady {
			err = s.errLocked()
		}
		s.mu.Unlock()
		switch {
		case ok && pub.covers(doc):
			r.Published, r.Diagnostics, r.Waited = true, pub.diags, max(pub.at.Sub(sent), 0)
			return r
		case err != nil:
			return r.failed(err)
		}
		select {
		case <-changed:
		case <-timer.C:
			return r
		case <-ctx.Done():
			r.Cancelled = true
			return r
		}
	}
}

// errOf is the error of a server that is not ready.
func (s *server) errOf() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errLocked()
}

// failed is r with the failure err.
func (r Report) failed(err error) Report {
	var f *FailedError
	switch {
	case errors.As(err, &f):
		r.Failed, r.Stderr = f.Reason, f.Stderr
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		r.Cancelled = true
	default:
		r.Failed = err.Error()
	}
	return r
}
