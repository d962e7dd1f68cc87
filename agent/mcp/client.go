package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// newClient is the SDK client of one connection to s: it advertises form
// elicitation (answered by Options.Elicit, declined when nobody can
// answer), and sampling only where the configuration allows it (answered
// by the running call's Sampler: sampling.go), so another server's
// sampling request is refused as an unknown method; it routes progress to the running call, server log
// messages to steer's log, and list changes to a fresh listing.
func newClient(s *server) *sdk.Client {
	impl := &sdk.Implementation{Name: "steer", Version: s.o.version()}
	opts := &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			ctx, done := s.asked(ctx)
			defer done()
			return s.elicit(ctx, req.Params)
		},
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.onProgress(req.Params)
		},
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			s.onLog(req.Params)
		},
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { go s.relist() },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { go s.relist() },
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { go s.relist() },
	}
	if s.cfg.AllowSampling {
		opts.CreateMessageHandler = func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			ctx, done := s.asked(ctx)
			defer done()
			return s.sample(ctx, req.Params)
		}
	}
	return sdk.NewClient(impl, opts)
}

// list asks a new session for everything it offers, as its capabilities
// say it has.
func list(ctx context.Context, cs *sdk.ClientSession) (lists, error) {
	var ls lists
	caps := cs.InitializeResult().Capabilities
	if caps == nil {
		return ls, nil
	}
	var err error
	if caps.Tools != nil {
		if ls.tools, err = collect(cs.Tools(ctx, nil)); err != nil {
			return ls, fmt.Errorf("tools/list: %w", err)
		}
	}
	if caps.Prompts != nil {
		if ls.prompts, err = collect(cs.Prompts(ctx, nil)); err != nil {
			return ls, fmt.Errorf("prompts/list: %w", err)
		}
	}
	if caps.Resources != nil {
		if ls.resources, err = collect(cs.Resources(ctx, nil)); err != nil {
			return ls, fmt.Errorf("resources/list: %w", err)
		}
		if ls.templates, err = collect(cs.ResourceTemplates(ctx, nil)); err != nil {
			return ls, fmt.Errorf("resources/templates/list: %w", err)
		}
	}
	return ls, nil
}

// askForLogs asks a server that logs to send its messages at the level
// steer's log keeps: servers send none until asked.
func askForLogs(ctx context.Context, cs *sdk.ClientSession, log *slog.Logger) error {
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Logging == nil {
		return nil
	}
	level := sdk.LoggingLevel("info")
	if log.Enabled(ctx, slog.LevelDebug) {
		level = "debug"
	}
	if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: level}); err != nil {
		return fmt.Errorf("logging/setLevel: %w", err)
	}
	return nil
}

// collect drains a paginated listing.
func collect[T any](seq func(func(*T, error) bool)) ([]*T, error) {
	var out []*T
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// relist refreshes a ready server's lists after a list_changed
// notification; the new tools are offered from the next request on.
func (s *server) relist() {
	cs, err := s.ready()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.timeout())
	defer cancel()
	ls, err := list(ctx, cs)
	if err != nil {
		s.o.logger().Warn("mcp server's lists could not be refreshed", "server", s.cfg.Name, "error", s.redacted(err))
		return
	}
	s.mu.Lock()
	if s.session == cs {
		s.lists = ls
	}
	s.mu.Unlock()
	s.changed()
}

// redacted is err's text without the server's secrets.
func (s *server) redacted(err error) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.red.clean(err.Error())
}

// onProgress hands a progress notification to the call that asked for it.
func (s *server) onProgress(p *sdk.ProgressNotificationParams) {
	s.mu.Lock()
	fn := s.progress[fmt.Sprint(p.ProgressToken)]
	s.progressed = time.Now()
	s.mu.Unlock()
	if fn != nil {
		fn(p)
	}
}

// onLog writes a server's log message to steer's log at its level.
func (s *server) onLog(p *sdk.LoggingMessageParams) {
	level := slog.LevelInfo
	switch p.Level {
	case "debug":
		level = slog.LevelDebug
	case "info", "notice":
	case "warning":
		level = slog.LevelWarn
	default: // error, critical, alert, emergency
		level = slog.LevelError
	}
	s.o.logger().Log(context.Background(), level, "mcp server log", "server", s.cfg.Name, "logger", p.Logger, "data", p.Data)
}

// elicit answers a server's request for input through Options.Elicit, or
// declines it when nobody can answer (a headless run). A url-mode request
// is refused with invalid params, as the specification has a client do
// for a mode it did not declare: steer declares form only.
func (s *server) elicit(ctx context.Context, p *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	if p.Mode == "url" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "steer takes form-mode elicitation only (the mode it declared)"}
	}
	fn := s.o.elicitor()
	if fn == nil {
		s.o.logger().Info("mcp elicitation declined: nobody can answer here", "server", s.cfg.Name)
		return &sdk.ElicitResult{Action: ElicitDecline}, nil
	}
	ans, err := fn(ctx, Elicitation{Server: s.cfg.Name, Message: p.Message, Schema: p.RequestedSchema})
	if err != nil {
		return nil, err
	}
	return &sdk.ElicitResult{Action: ans.Action, Content: ans.Content}, nil
}
