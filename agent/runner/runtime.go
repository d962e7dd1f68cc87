package runner

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// State is what a UI shows about the runtime.
type State struct {
	agent.State
	SessionID string
	Workspace string
	// PersistError says why the last save failed, if it did.
	PersistError string
	// RunStarted is when the run under way began; zero when none is.
	RunStarted time.Time
	// Stalled is when the run under way last made progress, while it is
	// stalled (see StallAfter); zero otherwise.
	Stalled time.Time
	// Earlier is the history the model no longer sees (compacted away),
	// oldest first, each compaction's marker last of what it replaced:
	// shown before Messages, so that nothing the user saw disappears.
	Earlier []HistoryEntry
	// EarlierSaved, when not "", is the compaction (Earlier's first entry)
	// before which the saved history was not read when the session was
	// opened, so that a long session shows at once: SavedEarlier reads it.
	EarlierSaved string
	// Todo is the session's todo list (TodoOf its transcript).
	Todo tools.TodoList
	// Approval is the session's approval mode now; PlanFile its plan file
	// while that is tools.ModePlan.
	Approval tools.Mode
	PlanFile string
}

// Runtime is one session's runtime: the facade over its Agent. It is
// composed of parts, each with its own fields and a doc saying what it may
// call; their exported methods are the facade's. Runtime itself keeps the
// run: the attempts, the lanes, the saves of its events, the context guard,
// the state and Close.
type Runtime struct {
	*inputs         // Prompt, Steer, FollowUp, Submit, Dequeue, Abort (inputs.go)
	*sessionBook    // SessionID, ListSessions, SwitchSession, NewSession (sessions.go)
	*settings       // SetModel, SetThinking, queue modes, PreferProfile (settings.go)
	*modelShelf     // Models, ModelDiscovered, RefreshModels (discovery.go)
	*inspectors     // Profiles, Engines, Runs, ContextMeter, the clears (inspect.go)
	*approvalDesk   // Approve, ApproveIn, PendingApprovals (approval.go)
	*runNotices     // SubscribeNotices (notice.go)
	*mcpDesk        // the MCP servers, their prompts and resources (mcp.go)
	*library        // the user's skills and prompt templates (library.go)
	*trustDesk      // WorkspaceTrust, WorkspaceTrusted, TrustWorkspace, ConfigView (trust.go)
	*memory         // ContextFiles, joined to every request's prompt (memory.go)
	*permissionDesk // Permissions, SaveRule, RemoveRule (permissiondesk.go)
	*planDesk       // ApprovalMode, SetApprovalMode, PlanFile, ApprovePlan (planmode.go)

	opts Options
	// given are the options as New was given them, for a host's runtimes
	// of other sessions (opts has this session's workspace and tools).
	given Options
	tools *agent.ToolSet
	agent *agent.Agent
	log   *slog.Logger
	store *persistence.Store
	// checkpoints snapshot the workspace for rewind (checkpoints.go).
	checkpoints *checkpoints

	clock *runClock
	// stall tells a stalled run (stalled.go); stallRuns lists the stalled
	// runs of the runtimes whose lanes this one owns.
	stall     *stallWatch
	stallRuns stallBoard
	// baseTools are the tools without task, which sub-agents get; subs are
	// this runtime's sub-agents.
	baseTools []agent.Tool
	subs      *subagents
	// The lanes: the scheduler (shared with sub-agents), the run's task,
	// and the publisher of this process's snapshot, which only the
	// lanesOwner's publishes.
	sched *lanes.Scheduler
	// lanesOwner is the runtime that publishes sched: this one when it
	// owns it, else the parent's or the host's first (nil: nobody does).
	lanesOwner *Runtime
	lane       runLane
	lanePub    *lanePublisher
	// keeper is the context guard: the pre-request guard, the engines
	// and the compactions (keeper.go).
	keeper *contextKeeper
	ends   runEnds // how the run under way ends (runend.go)
	ledger failover.Ledger
	// The attempts (attempt.go): the configured models and profiles, the
	// session's choices of profile and thinking level, the use of the
	// ledger, and the attempt loop over them.
	catalog  *catalog
	choice   *profileChoice
	thinking *thinkingChoice
	profiles *profileLedger
	attempts *attempts
	// writes runs the session's writes and keeps the account of their
	// failures (writes.go); no save can hang shutdown (see close.go).
	writes *writes
	// spend is the account the budget is checked against (budget_meter.go).
	spend *spendMeter
	// hooks runs the user's hooks (hookcalls.go): stopHooks and
	// sessionHooks at the run's end and in the session's life.
	hooks        *hookCalls
	stopHooks    *stopHooks
	sessionHooks *sessionHooks
	// unwatchModels ends the following of the servers' listings
	// (modelsListed).
	unwatchModels func()
}

// New resolves the model, builds the runtime and opens the session the
// options name; its errors are worded for the user.
func New(ctx context.Context, opts Options) (*Runtime, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Resolve == nil {
		providers := opts.Providers
		opts.Resolve = func(ref string) (agent.Model, error) { return ResolveModel(providers, ref) }
	}
	if opts.MaxInputBytes == 0 {
		opts.MaxInputBytes = DefaultMaxInputBytes
	}
	given := opts
	models := &modelShelf{providers: opts.Providers, cache: opts.Discovery}
	opts.Resolve = models.resolver(opts.Resolve)
	model, err := opts.Resolve(opts.Model)
	if err != nil {
		return nil, err
	}
	if err := adoptSessionWorkspace(ctx, &opts); err != nil {
		return nil, err
	}
	if opts.ToolsFor != nil {
		opts.Tools = opts.ToolsFor(opts.Workspace)
	}
	if opts.ProjectContext != nil {
		opts.SystemPrompt += "\n\n" + opts.ProjectContext(opts.Workspace)
	}
	if opts.Approval == "" {
		opts.Approval = tools.ModeAuto
	}
	r := &Runtime{opts: opts, given: given, modelShelf: models, log: opts.Logger, store: opts.Store, ledger: opts.Ledger, baseTools: opts.Tools, catalog: newCatalog(opts),
		sessionBook: &sessionBook{}, runNotices: &runNotices{now: opts.Now}, approvalDesk: &approvalDesk{}, mcpDesk: &mcpDesk{m: opts.MCP},
		library: &library{workspace: opts.Workspace, user: opts.UserDirs}, trustDesk: &trustDesk{g: opts.Trust, m: opts.MCP, cfg: opts.Config}}
	r.mcpDesk.sampling = r.withSampler
	r.library.trusted = r.trustDesk.WorkspaceTrusted
	r.memory = newMemory(opts.Workspace, opts.ContextFiles)
	r.permissionDesk = &permissionDesk{book: opts.Rules}
	r.planDesk = &planDesk{dir: planDirOf(opts.PlanDir), workspace: opts.Workspace, sessionID: r.SessionID,
		gate: r.permissionDesk.currentGate, tell: r.notifyData, record: r.recordApproval, mode: opts.Approval}
	r.permissionDesk.mode = r.planDesk.ApprovalMode
	r.hooks = newHookCalls(opts.Hooks, opts.Workspace, r.planDesk.ApprovalMode, opts.Now, r.SessionID, r.notifyData)
	r.writes = newWrites(r.store != nil, writeDeps{log: r.log, sessionID: r.SessionID, notify: r.notify})
	r.stopHooks = newStopHooks(r.hooks, opts.SubAgent, opts.Now, r.notifyData)
	r.sessionHooks = newSessionHooks(r.hooks, r.memory, opts.SubAgent, r.writes.ctx)
	r.mcpDesk.asking = r.sessionHooks.notification
	if opts.SubAgent { // a child works in its parent's turn, which has its checkpoint
		r.checkpoints = newCheckpoints(nil, "", r.log)
	} else {
		r.checkpoints = newCheckpoints(r.store, opts.Workspace, r.log)
	}
	r.approvals = newApprovals(approvalDeps{
		asker: func() string {
			if !opts.SubAgent {
				return ""
			}
			return r.SessionID()
		},
		hold: func() func() {
			r.clock.pause()
			resumeLane := r.lane.pause()
			return func() { resumeLane(); r.clock.resume() }
		},
		waiting: func(req ApprovalRequest) {
			r.sessionHooks.notification("permission_prompt", "steer needs your permission to use "+req.ToolName)
		},
	})
	r.subs = newSubagents(subagentDeps{store: r.store, writes: r.writes, log: r.log, now: opts.Now, sessionID: r.SessionID, spawn: r.newChild})
	r.approvalDesk.subs, r.approvalDesk.sessionID = r.subs, r.SessionID
	if !opts.SubAgent { // a child delegates no further: its lane would wait for its own children
		r.opts.Tools = append(append([]agent.Tool(nil), opts.Tools...), taskTool{r.subs})
	}
	r.settings = &settings{providers: opts.Providers, resolve: opts.Resolve, catalog: r.catalog, attempt: r.attemptStream,
		store: r.store, writes: r.writes, log: r.log, current: r.row}
	set, err := r.gatedTools()
	if err != nil {
		return nil, err
	}
	r.tools = set
	if r.keeper, err = newContextKeeper(keeperPort{r}, keeperPort{r}, engineSetupOf(r.opts)); err != nil {
		return nil, err
	}
	r.sched = opts.Lanes
	if r.sched == nil {
		r.sched = lanes.New(lanes.Options{MaxConcurrent: opts.MaxConcurrent})
		r.lanesOwner = r
	}
	if r.ledger == nil {
		r.ledger = &failover.MemLedger{}
	}
	if r.choice, err = newProfileChoice(opts.Profile, r.catalog, r.saveChoice, r.log); err != nil {
		return nil, err
	}
	if r.streamFor(model) == nil {
		return nil, fmt.Errorf("model %s has no configured provider", model.Ref())
	}
	if err := r.catalog.unusable(model); err != nil {
		return nil, err
	}
	r.writes.start(opts.Quit)
	r.lanePub = newLanePublisher(r.store, r.sched, r.writes, r.log)
	r.keeper.engines.startFeed(r.writes.ctx)
	r.agent = agent.New(agent.Config{
		Model: model, Stream: r.streamFor(model), SystemPrompt: opts.SystemPrompt,
		Tools: r.tools, Thinking: r.catalog.defaultThinking(model), SteeringMode: opts.SteeringMode,
		FollowUpMode: opts.FollowUpMode, Now: opts.Now, Pending: r.subs, BeforeStop: r.stopHooks.beforeStop,
	})
	r.inputs = &inputs{agent: r.agent, store: r.store, writes: r.writes, log: r.log, now: opts.Now,
		maxBytes: opts.MaxInputBytes, switching: &r.sessionBook.swap, book: r.sessionBook, expand: r.takeInput}
	r.planDesk.followUp = r.inputs.FollowUp
	r.thinking = &thinkingChoice{set: r.agent.SetThinking, defaults: r.catalog.defaultThinking}
	r.settings.agent, r.settings.thinking, r.settings.choice = r.agent, r.thinking, r.choice
	r.profiles, r.attempts = newAttemptParts(r)
	r.inspectors = &inspectors{providers: opts.Providers, ledger: r.ledger, rehearsal: opts.Rehearsal, now: opts.Now,
		sessionID: r.SessionID, choice: r.choice, catalog: r.catalog, profiles: r.profiles, keeper: r.keeper,
		store: r.store, agent: r.agent, systemPrompt: r.opts.SystemPrompt, memory: r.memory,
		library: r.library}
	r.clock = newRunClock(opts.RunTimeout, opts.Now, r.agent.AbortWith)
	r.agent.Subscribe(r.watchRun) // first: names the run and settles its outcome
	r.agent.Subscribe(r.persist)  // then saved before any front end sees it
	r.agent.Subscribe(r.timeRun)
	r.stall = watchStalls(r)
	r.agent.Subscribe(r.laneProgress)
	r.agent.Subscribe(r.profiles.settle) // after the lanes are left (profiles.go)
	r.agent.Subscribe(r.subs.settle)
	r.agent.Subscribe(r.keeper.observe)
	r.spend = newSpendMeter(r.store, r.SessionID, opts.Budget)
	r.agent.Subscribe(r.logEvent)
	r.mcpDesk.follow(r.refreshTools)
	r.sessionDeps = sessionDeps{store: r.store, writes: r.writes, log: r.log, now: opts.Now, agent: r.agent,
		choice: r.choice, workspace: opts.Workspace, parent: opts.ParentSession,
		adoptModel: r.adoptSavedModel, loaded: r.subs.loaded, regate: r.regate, life: r.sessionHooks}
	if err := r.openInitialSession(ctx, opts.Session, opts.Continue); err != nil {
		r.stopSaving()
		return nil, err
	}
	r.planDesk.applyMode() // the plan file is the session's, known from here
	r.unwatchModels = func() {}
	if !opts.SubAgent { // the parent's runtime tells the user
		r.unwatchModels = opts.Discovery.Watch(r.modelsListed)
	}
	return r, nil
}

// gatedTools is a session's tool set: every tool behind the approval gate,
// whose "allow for this session" answers last as long as the set.
func (r *Runtime) gatedTools() (*agent.ToolSet, error) {
	var approver tools.Approver
	if r.opts.Interactive {
		approver = r.approvals.approver()
	}
	var rules tools.Rulebook = tools.NoRules(r.opts.Workspace)
	if r.opts.Rules != nil {
		rules = r.opts.Rules
	}
	gate := tools.NewGate(r.planDesk.ApprovalMode(), approver).WithHooks(r.hooks).WithRules(rules)
	r.permissionDesk.useGate(gate)
	r.planDesk.applyMode()
	return r.toolSet(gate)
}

// toolSet is the session's tools and the MCP servers' tools of the moment
// behind gate.
func (r *Runtime) toolSet(gate tools.Gater) (*agent.ToolSet, error) {
	r.mcpDesk.useGate(gate)
	gated := gate.Wrap(r.checkpoints.wrap(append(append([]agent.Tool(nil), r.opts.Tools...), r.mcpDesk.tools()...), r.SessionID))
	for i, t := range gated {
		gated[i] = runnerTool{Tool: t, r: r}
	}
	return agent.NewToolSet(gated...)
}

// runnerTool is a tool as the runner runs it: it runs once the message
// that called it is saved (see saveBarrier), a result is cut to the persist
// guard's hard maximum (contextguard.PersistMaxChars) before it enters the
// transcript, and a call the user denied ends the run (the model reads
// "denied by the user" but is not asked again until the user says
// something).
type runnerTool struct {
	agent.Tool
	r *Runtime
}

func (t runnerTool) Execute(ctx context.Context, callID string, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	// A user's shell command was saved as a pending input before it ran,
	// and no assistant message holds its call: nothing to wait for.
	if !agent.UserShell(ctx) {
		if err := t.r.writes.awaitSaved(ctx, callID); err != nil {
			return agent.ErrorResult("not run: the run stopped before its call was saved"), nil
		}
	}
	res, err := t.Tool.Execute(ctx, callID, args, update)
	if err == nil {
		t.r.planDesk.published(ctx, t.Tool.Spec().Name, args, res)
	}
	if d, ok := tools.RefusalOf(res.Details); ok && d.Refused == tools.RefusedByUser {
		res.Terminate = true
	}
	copied := false
	for i, c := range res.Content {
		if c.Type != agent.ContentText || len(c.Text) <= contextguard.PersistMaxChars {
			continue
		}
		if !copied { // the tool may keep its slice
			res.Content, copied = append([]agent.Content(nil), res.Content...), true
		}
		res.Content[i].Text = contextguard.TruncateToolResult(c.Text, contextguard.PersistMaxChars)
	}
	return res, err
}

// TimedOut reports whether the last run was stopped by its time limit.
func (r *Runtime) TimedOut() bool { return r.clock.timedOut() }

// logEvent records the run's milestones (never deltas) in the log.
func (r *Runtime) logEvent(ev agent.Event) {
	switch e := ev.(type) {
	case agent.AgentStart:
		r.log.Info("run started", "session", r.SessionID())
	case agent.AgentEnd:
		r.log.Info("run ended", "session", r.SessionID(), "messages", len(e.Messages))
	case agent.MessageEnd:
		if e.Message.StopReason == agent.StopReasonError {
			r.log.Warn("response failed", "session", r.SessionID(), "error", e.Message.ErrorMessage)
		}
	case agent.ToolExecutionEnd:
		r.log.Info("tool finished", "session", r.SessionID(), "tool", e.ToolName, "error", e.IsError)
	}
}

// Subscribe adds a subscriber to the session's events (see agent.Subscriber);
// after each agent_end it also gets the run's run_end (AnnotationRunEnd).
func (r *Runtime) Subscribe(fn agent.Subscriber) (unsubscribe func()) {
	return r.agent.Subscribe(r.ends.withRunEnd(fn))
}

// WaitForIdle waits until no run is active and everything the last run
// produced has been saved (or failed to be, see State().PersistError).
func (r *Runtime) WaitForIdle(ctx context.Context) error {
	if err := r.agent.WaitForIdle(ctx); err != nil {
		return err
	}
	return r.writes.flush(ctx)
}

// State returns a snapshot.
func (r *Runtime) State() State {
	return r.stateOf(r.agent.State())
}

// stateOf completes the agent's snapshot st.
func (r *Runtime) stateOf(st agent.State) State {
	todo := TodoOf(st.Messages)
	mode, planFile := r.planDesk.ApprovalMode(), ""
	if mode == tools.ModePlan {
		planFile = r.planDesk.PlanFile()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return State{State: st, SessionID: r.session.id, Workspace: r.opts.Workspace, PersistError: r.writes.persistError(),
		RunStarted: r.clock.began(), Stalled: r.stall.stalledSince(), Earlier: slices.Clip(r.session.earlier),
		EarlierSaved: r.session.savedBefore, Todo: todo, Approval: mode, PlanFile: planFile}
}

// regate gives a session it changed to tools behind a fresh approval gate,
// so that "allow for this session" ends with the session.
func (r *Runtime) regate() error {
	set, err := r.gatedTools()
	if err != nil {
		return err
	}
	r.agent.SetTools(set)
	return nil
}
