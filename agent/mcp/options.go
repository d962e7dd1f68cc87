package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent/mcp/oauth"
)

// Options are what a Manager needs from its process; the zero value works
// (the real environment, no log, no one to answer elicitations).
type Options struct {
	// Workspace is where stdio servers run unless their cwd says otherwise.
	Workspace string
	// Getenv expands ${VAR}; Environ is the environment children inherit.
	// Both default to the process's.
	Getenv  func(string) string
	Environ []string
	// HiddenEnv are variables children do not inherit: steer's own keys.
	HiddenEnv []string
	// HTTPClient gives the client whose transport reaches the named HTTP
	// or SSE server, under its configured headers: where OAuth plugs in.
	// nil, or a nil result, means http.DefaultTransport.
	HTTPClient func(server string) *http.Client
	// Logger gets the servers' failures and log messages.
	Logger *slog.Logger
	// Backoff is the wait before the n-th restart (n from 0); nil means
	// 1s, 2s, 4s.
	Backoff func(n int) time.Duration
	// Version is steer's, sent in initialize.
	Version string
	// OAuthStore keeps the HTTP servers' OAuth tokens (the state
	// directory's); nil leaves OAuth out, and a 401 just marks the server
	// "needs login". AutoLogin lets a server's 401 open the browser by
	// itself ($BROWSER set) instead of waiting for `steer mcp login`.
	OAuthStore *oauth.Store
	AutoLogin  bool

	mu     sync.Mutex
	elicit Elicitor
}

func (o *Options) getenv() func(string) string {
	if o.Getenv != nil {
		return o.Getenv
	}
	return os.Getenv
}

func (o *Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (o *Options) backoff(n int) time.Duration {
	if o.Backoff != nil {
		return o.Backoff(n)
	}
	return time.Second << min(n, 5)
}

func (o *Options) version() string {
	if o.Version != "" {
		return o.Version
	}
	return "dev"
}

func (o *Options) elicitor() Elicitor {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.elicit
}

// Elicitation is a server's request for input from the user.
type Elicitation struct {
	Server  string
	Message string
	// Schema is the requested JSON Schema (an object of flat properties),
	// as the server sent it.
	Schema any
}

// The actions an answer to an Elicitation takes.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitAnswer is the user's answer: Action is ElicitAccept (with Content
// fitting the schema), ElicitDecline or ElicitCancel.
type ElicitAnswer struct {
	Action  string
	Content map[string]any
}

// Elicitor answers elicitations (the TUI's form dialog). It is called on
// the SDK's goroutine of the request and blocks until the user answers or
// ctx ends; an error fails the server's request.
type Elicitor func(ctx context.Context, e Elicitation) (ElicitAnswer, error)
