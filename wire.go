package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/anthropic"
	"github.com/steer-tui/steer/agent/llm/openai"
	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/assets"
	"github.com/steer-tui/steer/persistence"
)

// app is the wired runtime with what must be closed after it.
type app struct {
	rt       *runner.Runtime
	store    *persistence.Store
	logger   *slog.Logger
	closeLog func()
	// continued says that --continue found nothing to continue; "" otherwise.
	continued string
}

// close ends the runtime in order, within quitWait: the active run (already
// aborted by a signal or the front end) is given time to end, the pending
// saves are written, then the database and the log are closed.
func (a *app) close() {
	ctx, cancel := context.WithTimeout(context.Background(), quitWait)
	defer cancel()
	if err := a.rt.WaitForIdle(ctx); err != nil {
		a.logger.Error("the run did not end in time", "error", err)
	}
	if err := a.rt.Close(ctx); err != nil {
		a.logger.Error("saving the last changes failed", "error", err)
	}
	if err := a.store.Close(); err != nil {
		a.logger.Error("closing the database failed", "error", err)
	}
	a.closeLog()
}

// build wires the runtime: the configuration's providers (the scripted one
// always among them), the model to start with, the state directory with its
// lock, log and database, the tools and the session.
func build(cfg *config.Config, o options) (*app, error) {
	providers, err := providersFrom(cfg, o)
	if err != nil {
		return nil, err
	}
	resolve := resolverFor(cfg, providers)
	model, err := initialModel(cfg, o, providers, resolve)
	if err != nil {
		return nil, err
	}
	stateDir, err := resolveStateDir(o.stateDir)
	if err != nil {
		return nil, err
	}
	workspace, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("cannot read the working directory: %w", err)
	}
	store, err := persistence.Open(stateDir, persistence.Options{})
	if err != nil {
		return nil, err
	}
	logger, closeLog, err := openLog(stateDir)
	if err != nil {
		store.Close()
		return nil, err
	}
	a := &app{store: store, logger: logger, closeLog: closeLog}
	if o.cont {
		_, err := store.LatestSession(context.Background(), workspace)
		if errors.Is(err, persistence.ErrNotFound) {
			a.continued = "no saved session in this directory; starting a new one"
		}
	}
	a.rt, err = runner.New(context.Background(), runner.Options{
		Providers:     providers,
		Model:         model,
		Resolve:       resolve,
		Tools:         tools.New(workspace, tools.WithHiddenEnv(cfg.SecretEnvNames()...)),
		SystemPrompt:  assets.SystemPrompt(),
		Workspace:     workspace,
		Thinking:      cfg.Agent.Thinking,
		SteeringMode:  cfg.Agent.SteeringMode,
		FollowUpMode:  cfg.Agent.FollowUpMode,
		MaxInputBytes: cfg.Agent.MaxInputBytes,
		Logger:        logger,
		Store:         store,
		Session:       o.session,
		Continue:      o.cont,
	})
	if err != nil {
		if cerr := store.Close(); cerr != nil {
			logger.Error("closing the database failed", "error", cerr)
		}
		closeLog()
		return nil, err
	}
	// A resumed session comes back on its own model; --model says otherwise.
	if want, _ := resolve(model); o.model != "" && a.rt.State().Model.Ref() != want.Ref() {
		if _, err := a.rt.SetModel(model); err != nil {
			a.close()
			return nil, fmt.Errorf("--model %s: %w", o.model, err)
		}
	}
	logger.Info("steer started", "command", o.command, "config", cfg.Source, "model", a.rt.State().Model.Ref(),
		"workspace", workspace, "session", a.rt.SessionID())
	return a, nil
}

// initialModel checks the model to start with, worded for where it came
// from: the --model flag, or the configuration's default. A model whose
// provider cannot be used (its key is not set) is refused, naming the key.
func initialModel(cfg *config.Config, o options, providers []runner.Provider, resolve func(string) (agent.Model, error)) (string, error) {
	ref := o.model
	if ref == "" {
		ref = cfg.Model
	}
	m, err := resolve(ref)
	switch {
	case err != nil && o.model != "":
		return "", fmt.Errorf("--model: %w", err)
	case err != nil:
		return "", err
	}
	for _, p := range providers {
		if p.Name != m.Provider || p.Unusable == "" {
			continue
		}
		if o.model != "" {
			return "", fmt.Errorf("--model %s: %s", m.Ref(), p.Unusable)
		}
		return "", fmt.Errorf("the default model %s cannot be used: %s (set the key, choose another model with --model, "+
			"or run offline with --model %s/echo)", m.Ref(), p.Unusable, scripted.ProviderName)
	}
	return ref, nil
}

// providersFrom builds each configured provider, then the built-in scripted
// one (with --pace and --scenario) unless the configuration names its own.
// A provider none of whose keys is set is listed as unusable.
func providersFrom(cfg *config.Config, o options) ([]runner.Provider, error) {
	popts := scripted.Options{Pace: o.pace}
	if o.scenario != "" {
		sc, err := scripted.LoadScenario(o.scenario)
		if err != nil {
			return nil, fmt.Errorf("--scenario: %w", err)
		}
		popts.Scenario = sc
	}
	offline := scripted.New(popts).Stream
	var out []runner.Provider
	hasScripted := false
	for _, p := range cfg.Providers {
		stream, err := streamOf(p, offline)
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", p.Name, err)
		}
		hasScripted = hasScripted || p.Name == scripted.ProviderName
		out = append(out, runner.Provider{Name: p.Name, Models: p.Models, Stream: stream, Unusable: p.Unusable()})
	}
	if !hasScripted {
		out = append(out, runner.Provider{Name: scripted.ProviderName, Models: scripted.Models(), Stream: offline})
	}
	return out, nil
}

// streamOf builds the client of one configured provider. Until failover
// rotates auth profiles, the first usable profile's key is used.
func streamOf(p config.Provider, offline agent.StreamFn) (agent.StreamFn, error) {
	key := ""
	if usable := p.Usable(); len(usable) > 0 {
		key = usable[0].Key.Reveal()
	}
	switch p.API {
	case config.APIOpenAIChat:
		c, err := openai.New(openai.Config{BaseURL: p.BaseURL, APIKey: key, IdleTimeout: p.Timeout, Headers: p.Headers})
		if err != nil {
			return nil, err
		}
		return c.Stream, nil
	case config.APIAnthropicMessages:
		c, err := anthropic.New(anthropic.Config{BaseURL: p.BaseURL, APIKey: key, IdleTimeout: p.Timeout, Headers: p.Headers})
		if err != nil {
			return nil, err
		}
		return c.Stream, nil
	default:
		return offline, nil
	}
}

// resolverFor resolves references through the configuration (aliases,
// catalogue models); the scripted models resolve as they are. Its errors
// name no flag: the runtime also resolves what rpc's set_model and the
// TUI's model picker ask for.
func resolverFor(cfg *config.Config, providers []runner.Provider) func(string) (agent.Model, error) {
	return func(ref string) (agent.Model, error) {
		if ref == "" || strings.HasPrefix(ref, scripted.ProviderName+"/") {
			return runner.ResolveModel(providers, ref)
		}
		m, err := cfg.ResolveModel(ref)
		if err != nil {
			if sm, serr := runner.ResolveModel(providers, ref); serr == nil {
				return sm, nil
			}
			return agent.Model{}, err
		}
		return m, nil
	}
}

// resolveStateDir picks the state directory (SPEC §10) and creates it 0700.
func resolveStateDir(flagValue string) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = os.Getenv("STEER_STATE_DIR")
	}
	if dir == "" {
		base := os.Getenv("XDG_STATE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("no state directory: set --state-dir or STEER_STATE_DIR (%v)", err)
			}
			base = filepath.Join(home, ".local", "state")
		}
		dir = filepath.Join(base, "steer")
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o700); err != nil {
		return "", fmt.Errorf("cannot use state directory %s: %v", dir, err)
	}
	return dir, nil
}

// openLog appends JSON lines to the state directory's log file.
func openLog(stateDir string) (*slog.Logger, func(), error) {
	path := filepath.Join(stateDir, "logs", "steer.log")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot write the log %s: %v", path, err)
	}
	return slog.New(slog.NewJSONHandler(f, nil)), func() { _ = f.Close() }, nil
}

// sessions prints the saved sessions, or one transcript with "show ID". It
// opens the database read-only when another steer owns the directory.
func sessions(o options, stdout, stderr io.Writer) int {
	stateDir, err := resolveStateDir(o.stateDir)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	store, err := persistence.Open(stateDir, persistence.Options{})
	var locked *persistence.LockedError
	if errors.As(err, &locked) {
		store, err = persistence.Open(stateDir, persistence.Options{ReadOnly: true})
	}
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	defer store.Close()
	if len(o.args) == 2 {
		return headless.ShowSession(context.Background(), store, o.args[1], o.json, stdout, stderr)
	}
	return headless.ListSessions(context.Background(), store, o.json, stdout, stderr)
}
