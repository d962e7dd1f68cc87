package runner

import (
	"context"
	"log/slog"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/lsp"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/runner/discover"
	"github.com/steer-tui/steer/agent/runner/hooks"
	"github.com/steer-tui/steer/agent/skills"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// Options configure a Runtime. Providers is required.
type Options struct {
	Providers []Provider
	// Model is the reference to start with.
	Model string
	// Resolve turns a reference into a model of one of the Providers; it
	// defaults to ResolveModel over their models. Configurations with
	// aliases and catalogues supply their own.
	Resolve func(ref string) (agent.Model, error)
	Tools   []agent.Tool
	// ToolsFor, when set, builds the tools for a workspace instead of Tools,
	// so that a session resumed by id works in its own workspace.
	ToolsFor     func(workspace string) []agent.Tool
	SystemPrompt string
	// ProjectContext, when set, describes a workspace for the system prompt
	// (its root): it is appended to SystemPrompt for the session's own
	// workspace.
	ProjectContext func(workspace string) string
	Workspace      string
	Thinking       agent.ThinkingLevel
	SteeringMode   agent.QueueMode
	FollowUpMode   agent.QueueMode
	Logger         *slog.Logger
	// Now defaults to time.Now.
	Now func() time.Time
	// Rehearsal names the scenario a rehearsal plays (--scenario), "" for a
	// real run. A rehearsal's Ledger is its own, in memory: nothing it
	// records may cool down a real profile for any other run or process,
	// and the inspectors label its rows with the scenario.
	Rehearsal string
	// Ledger is the shared auth-profile ledger (persistence.Store.Ledger);
	// nil keeps one in memory.
	Ledger failover.Ledger
	// Fallbacks are the models tried, in order, when the chosen one fails
	// on every profile (config "fallbacks").
	Fallbacks []string
	// Cooldowns tune the ledger's disabled track (config "auth.cooldowns");
	// zero fields are the defaults.
	Cooldowns failover.Cooldowns
	// Failover tunes the decision (format retries, the attempt limit).
	Failover failover.Config
	// Sleep waits d before a same-profile retry, or until ctx is done (then
	// returning its error); nil waits on a real timer. Tests inject a fake.
	Sleep func(ctx context.Context, d time.Duration) error
	// Approval is the tool approval policy (tools.approval, --approve);
	// "" is tools.ModeAuto. Interactive says that someone can answer an
	// approval request (the TUI, an rpc client); without it calls that
	// would ask are refused with a result naming --approve auto.
	Approval    tools.Mode
	Interactive bool
	// PlanDir is where plan mode's plan files are written, one per session
	// (PlanDirIn the state directory); "" is a directory under
	// os.TempDir().
	PlanDir string
	// Rules are the process's permission rules (NewRulebook), shared by a
	// host's runtimes; nil judges by Approval alone.
	Rules *Rulebook
	// ContextEngine names the context engine (agent.contextEngine); "" is
	// the built-in legacy engine. ContextEngines are the external engines
	// configured (contextEngines), started on first use.
	ContextEngine  string
	ContextEngines map[string]EngineConfig
	// MCP is the process's MCP servers (one manager for every session of a
	// host; the caller starts and closes it): their tools join the tool
	// set and follow its changes. nil for none.
	MCP *mcp.Manager
	// LSP is the process's language servers, which the tools' Diagnoser
	// (tools.WithDiagnostics, given by ToolsFor) asks, for /lsp; shared
	// like MCP (the caller closes it). nil for none.
	LSP *lsp.Manager
	// Discovery lists the models of the providers whose servers list them
	// (config "discover"), shared like MCP (the caller closes it): their
	// models join the configured ones (Models), a reference may name them,
	// and an outage is one notice (NoticeDiscoveryFailed). nil for none.
	Discovery *discover.Cache
	// Trust is the workspace's trust decision (CheckWorkspace), shared
	// like MCP; nil trusts nothing the workspace brings.
	Trust *WorkspaceGate
	// Config is the configuration's layers and values, for /config
	// (ViewOf); the zero value shows none.
	Config ConfigView
	// ContextFiles, when set, are the directories besides the workspace
	// where context files (AGENTS.md, CLAUDE.md) are looked for; the files
	// found join the system prompt of every request (memory.go). nil for
	// none.
	ContextFiles *tools.ContextSources
	// HiddenEnv are environment variables that hold keys (what each
	// profile's apiKeyEnv names), kept from the programs steer starts on top
	// of every name tools.IsSecretEnv hides.
	HiddenEnv []string
	// ExportSecrets are the values every export of a session redacts (the
	// provider keys), on top of the token shapes export knows.
	ExportSecrets []string
	// MaxConcurrent caps the runs of all sessions of this process at once
	// (agent.maxConcurrent; 0 is lanes.DefaultMaxConcurrent). Lanes, when
	// set, is the scheduler to share (a parent's, for a sub-agent's
	// runtime); SubAgent sends this runtime's runs to the sub-agent lane.
	MaxConcurrent int
	Lanes         *lanes.Scheduler
	SubAgent      bool
	// ParentSession is the session that started this sub-agent's.
	ParentSession string
	// Budget caps what a session and a run may spend (budget.go); zero is
	// no cap.
	Budget BudgetLimits
	// RunTimeout aborts a run that takes longer (agent.timeoutSeconds,
	// steer run --timeout); 0 is no limit. Approval waits do not count.
	RunTimeout time.Duration
	// UserDirs are the user's directories the global skills and prompt
	// templates are found under, beside the workspace's (library.go); zero
	// finds the workspace's alone.
	UserDirs skills.UserDirs
	// Hooks are the user's command hooks (config hooks), run at their
	// events (hookcalls.go); nil runs none.
	Hooks []hooks.Hook
	// MaxInputBytes bounds one input (prompt, steering, follow-up); larger
	// ones are refused with an *InputTooLargeError and nothing is stored.
	// 0 is DefaultMaxInputBytes.
	MaxInputBytes int
	// Quit, when set, ends with the quit signal (main passes the signals'
	// context). Then an input still being saved is refused at once (it was
	// never acknowledged), and the writes already handed over get QuitWait
	// before they are given up on: a database another process keeps locked
	// cannot hold the quit up. Nil: only Close ends the writes.
	Quit context.Context

	// Store keeps sessions, transcripts and pending inputs; nil keeps them in
	// memory only.
	Store *persistence.Store
	// Session resumes the saved session with this id; Continue resumes the
	// latest session of Workspace. Neither: a new session.
	Session  string
	Continue bool
	// Profile is the auth profile the session prefers at start (--profile;
	// see profiles_choice.go); it must be configured.
	Profile string
}
