package rpc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
)

// handler answers one command with its response data (nil for none) or the
// error the response reports.
type handler func(s *Server, ctx context.Context, c command) (any, error)

// handlers are the implemented commands and their handlers; notSupported
// lists the commands of pi's protocol and of steer's that are known but not
// implemented yet, which fail with a clear error rather than "unknown
// command". Arrays, not maps: package initialisation runs in every steer
// process, rpc or not, and a map literal is built there.
var (
	handlers = [...]struct {
		typ string
		h   handler
	}{
		{"prompt", (*Server).prompt},
		{"steer", (*Server).steer},
		{"follow_up", (*Server).followUp},
		{"collect", (*Server).collect},
		{"interrupt", (*Server).interrupt},
		{"abort", (*Server).abort},
		{"new_session", (*Server).newSession},
		{"switch_session", (*Server).switchSession},
		{"get_tree", (*Server).getTree},
		{"navigate_tree", (*Server).navigateTree},
		{"fork", (*Server).fork},
		{"clone", (*Server).clone},
		{"get_state", (*Server).getState},
		{"get_messages", (*Server).getMessages},
		{"set_model", (*Server).setModel},
		{"get_available_models", (*Server).getAvailableModels},
		{"set_thinking_level", (*Server).setThinkingLevel},
		{"set_steering_mode", (*Server).setSteeringMode},
		{"set_follow_up_mode", (*Server).setFollowUpMode},
		{"get_last_assistant_text", (*Server).getLastAssistantText},
		{"dequeue", (*Server).dequeue},
		{"inspect", (*Server).inspect},
		{"approve", (*Server).approve},
		{"set_approval_mode", (*Server).setApprovalMode},
		{"plan_approve", (*Server).planApprove},
		{"compact", (*Server).compact},
		{"clear_quarantine", (*Server).clearQuarantine},
		{"clear_cooldown", (*Server).clearCooldown},
		{"get_budget", (*Server).getBudget},
		{"set_budget", (*Server).setBudget},
		{"rewind", (*Server).rewind},
		{"quit", (*Server).quit},
	}
	notSupported = [...]string{
		// pi
		"set_auto_compaction", "set_auto_retry", "abort_retry",
		"cycle_model", "cycle_thinking_level", "get_available_thinking_levels",
		"bash", "abort_bash", "get_session_stats", "export_html",
		"get_fork_messages",
		"get_entries", "set_session_name",
		"get_commands",
		// steer
	}
)

// errCompactionCancelled answers a compact that abort (or quit) cancelled.
var errCompactionCancelled = errors.New("compaction cancelled: the session is unchanged")

// errStreaming is the answer to a prompt that names no streaming behaviour
// while a run is active.
var errStreaming = errors.New("agent is streaming; set streamingBehavior to steer or followUp")

// handleLine answers one non-empty line; it reports whether it was a quit.
func (s *Server) handleLine(ctx context.Context, line []byte) (quit bool) {
	c, err := parseCommand(line)
	if err != nil {
		s.respond(response{ID: c.id, Command: "parse", Error: "Failed to parse command: " + err.Error()})
		return false
	}
	s.settle(ctx)
	if c.typ == "compact" {
		s.startCompaction(ctx, c)
		return false
	}
	data, err := s.dispatch(ctx, c)
	s.respond(answer(c, data, err))
	return c.typ == "quit" && err == nil
}

// answer is the response to c: data, or err's text.
func answer(c command, data any, err error) response {
	r := response{ID: c.id, Command: c.typ, Success: err == nil, Data: data}
	if err != nil {
		r.Error, r.Data = err.Error(), nil
	}
	return r
}

func (s *Server) dispatch(ctx context.Context, c command) (any, error) {
	for _, h := range handlers {
		if h.typ == c.typ {
			return h.h(s, ctx, c)
		}
	}
	if slices.Contains(notSupported[:], c.typ) {
		return nil, fmt.Errorf("%s is not supported yet", c.typ)
	}
	return nil, fmt.Errorf("unknown command: %s", c.typ)
}

// respond writes a response; a write error is noticed by the command loop.
func (s *Server) respond(r response) {
	r.Type = "response"
	if err := s.out.Encode(r); err != nil && s.out.Err() == nil {
		// The data could not be encoded: the command still gets its one answer.
		r.Success, r.Error, r.Data = false, "cannot encode the response: "+err.Error(), nil
		_ = s.out.Encode(r)
	}
}

// deliveredOut answers an input that was queued (with the item's id, which
// dequeue takes) or started a run.
type deliveredOut struct {
	ItemID string `json:"itemId,omitempty"`
	Queued bool   `json:"queued"`
}

func delivered(it agent.QueueItem, queued bool, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if !queued {
		return deliveredOut{}, nil
	}
	return deliveredOut{ItemID: it.ID, Queued: true}, nil
}

// userInput is c's message and images with what the message @-mentions
// attached (files, directories, MCP resources), as the TUI and steer run
// attach them; a mention that cannot be read fails the command.
func (s *Server) userInput(ctx context.Context, c command) (string, []agent.Content, error) {
	text, images, err := c.userInput()
	if err != nil {
		return "", nil, err
	}
	attached, err := s.rt.Attach(ctx, text, nil)
	if err != nil {
		return "", nil, err
	}
	return text, append(images, attached...), nil
}

// prompt starts a run; while one is active, streamingBehavior says whether the
// input steers it or follows it up. The decision is the runtime's, taken
// atomically, so a run that ends meanwhile never strands the input.
func (s *Server) prompt(ctx context.Context, c command) (any, error) {
	text, images, err := s.userInput(ctx, c)
	if err != nil {
		return nil, err
	}
	behaviour, err := c.optString("streamingBehavior")
	if err != nil {
		return nil, err
	}
	switch behaviour {
	case "":
		if err := s.rt.Prompt(ctx, text, images...); err != nil {
			if errors.Is(err, agent.ErrBusy) {
				return nil, errStreaming
			}
			return nil, err
		}
		return nil, nil
	case "steer":
		return delivered(s.rt.Steer(ctx, text, images...))
	case "followUp":
		return delivered(s.rt.FollowUp(ctx, text, images...))
	case string(agent.QueueCollect), string(agent.QueueInterrupt):
		return delivered(s.rt.Submit(ctx, agent.QueueKind(behaviour), text, images...))
	default:
		return nil, fmt.Errorf("invalid streamingBehavior %q; want steer, followUp, collect or interrupt", behaviour)
	}
}

func (s *Server) steer(ctx context.Context, c command) (any, error) {
	text, images, err := s.userInput(ctx, c)
	if err != nil {
		return nil, err
	}
	return delivered(s.rt.Steer(ctx, text, images...))
}

func (s *Server) followUp(ctx context.Context, c command) (any, error) {
	text, images, err := s.userInput(ctx, c)
	if err != nil {
		return nil, err
	}
	return delivered(s.rt.FollowUp(ctx, text, images...))
}

// collect queues an input that does not steer the run: the collected
// inputs come together as one turn when it would stop (the seed's collect
// mode).
func (s *Server) collect(ctx context.Context, c command) (any, error) {
	text, images, err := s.userInput(ctx, c)
	if err != nil {
		return nil, err
	}
	return delivered(s.rt.Submit(ctx, agent.QueueCollect, text, images...))
}

// interrupt aborts the active run and starts the next one with the input
// (the seed's interrupt mode); when idle it goes ahead of what is queued.
func (s *Server) interrupt(ctx context.Context, c command) (any, error) {
	text, images, err := s.userInput(ctx, c)
	if err != nil {
		return nil, err
	}
	return delivered(s.rt.Submit(ctx, agent.QueueInterrupt, text, images...))
}

// abort answers once the run has ended, as pi does, so that a client may
// prompt again right away.
func (s *Server) abort(ctx context.Context, _ command) (any, error) {
	s.rt.Abort()
	return nil, s.rt.WaitForIdle(ctx)
}

// quit ends the active run with the quit reason, then Serve returns.
func (s *Server) quit(ctx context.Context, _ command) (any, error) {
	s.rt.AbortWith(runner.AbortQuit)
	return nil, s.rt.WaitForIdle(ctx)
}

func (s *Server) newSession(ctx context.Context, _ command) (any, error) {
	if err := s.rt.NewSession(ctx); err != nil {
		if errors.Is(err, agent.ErrBusy) {
			return nil, errors.New("cannot start a new session while a run is active; abort it first")
		}
		return nil, err
	}
	return struct {
		Cancelled bool `json:"cancelled"`
	}{}, nil
}

// switchSession resumes a saved session: steer's sessionId, or pi's
// sessionPath holding a steer session id.
func (s *Server) switchSession(ctx context.Context, c command) (any, error) {
	id, err := c.optString("sessionId")
	if err != nil {
		return nil, err
	}
	if id == "" {
		if id, err = c.requiredString("sessionPath"); err != nil {
			return nil, errors.New(`"sessionId" is required`)
		}
	}
	if err := s.rt.SwitchSession(ctx, id); err != nil {
		if errors.Is(err, agent.ErrBusy) {
			return nil, errors.New("cannot switch sessions while a run is active; abort it first")
		}
		return nil, err
	}
	return struct {
		Cancelled bool `json:"cancelled"`
	}{}, nil
}

func (s *Server) getState(context.Context, command) (any, error) {
	return stateOut(s.rt.State()), nil
}

func (s *Server) getMessages(context.Context, command) (any, error) {
	return struct {
		Messages []agent.Message `json:"messages"`
	}{eventjson.Messages(s.rt.State().Messages)}, nil
}

func (s *Server) setModel(ctx context.Context, c command) (any, error) {
	provider, err := c.requiredString("provider")
	if err != nil {
		return nil, err
	}
	id, err := c.requiredString("modelId")
	if err != nil {
		return nil, err
	}
	m, err := s.rt.SetModel(ctx, provider+"/"+id)
	if err != nil {
		return nil, err
	}
	return modelOut(m), nil
}

func (s *Server) getAvailableModels(ctx context.Context, _ command) (any, error) {
	s.rt.RefreshModels(ctx) // the servers of discovering providers, each within seconds
	models := s.rt.Models()
	out := make([]modelJSON, len(models))
	for i, m := range models {
		out[i] = modelOut(m)
	}
	return struct {
		Models []modelJSON `json:"models"`
	}{out}, nil
}

func (s *Server) setThinkingLevel(_ context.Context, c command) (any, error) {
	name, err := c.requiredString("level")
	if err != nil {
		return nil, err
	}
	level, ok := agent.ParseThinkingLevel(name)
	if !ok {
		return nil, fmt.Errorf("invalid thinking level %q; want off, minimal, low, medium, high or xhigh", name)
	}
	s.rt.SetThinking(level)
	return nil, nil
}

func (s *Server) setSteeringMode(_ context.Context, c command) (any, error) {
	mode, err := queueMode(c)
	if err != nil {
		return nil, err
	}
	s.rt.SetSteeringMode(mode)
	return nil, nil
}

func (s *Server) setFollowUpMode(_ context.Context, c command) (any, error) {
	mode, err := queueMode(c)
	if err != nil {
		return nil, err
	}
	s.rt.SetFollowUpMode(mode)
	return nil, nil
}

func queueMode(c command) (agent.QueueMode, error) {
	name, err := c.requiredString("mode")
	if err != nil {
		return "", err
	}
	mode, ok := agent.ParseQueueMode(name)
	if !ok {
		return "", fmt.Errorf("invalid mode %q; want %s or %s", name, agent.QueueOneAtATime, agent.QueueAll)
	}
	return mode, nil
}

// getLastAssistantText answers with the text of the last assistant message,
// as pi does: an aborted message with no content is skipped, and a message
// with no text gives null.
func (s *Server) getLastAssistantText(context.Context, command) (any, error) {
	var text *string
	msgs := s.rt.State().Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != agent.RoleAssistant || (m.StopReason == agent.StopReasonAborted && len(m.Content) == 0) {
			continue
		}
		if t := strings.TrimSpace(m.TextContent()); t != "" {
			text = &t
		}
		break
	}
	return struct {
		Text *string `json:"text"`
	}{text}, nil
}

// dequeue takes queued inputs back: the one itemId names, or all of them.
func (s *Server) dequeue(ctx context.Context, c command) (any, error) {
	id, err := c.optString("itemId")
	if err != nil {
		return nil, err
	}
	items, err := s.rt.Dequeue(ctx, id)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.Text
	}
	return struct {
		Items []eventjson.QueueItem `json:"items"`
		Texts []string              `json:"texts"`
	}{eventjson.QueueItems(items), texts}, nil
}

// inspect answers {what: NAME} for every registered inspector (profiles,
// engines, lanes, runs) with its answer: what `steer inspect NAME --json`
// shows (profiles and runs wrapped as {profiles: [...]} and {runs: [...]}).
func (s *Server) inspect(ctx context.Context, c command) (any, error) {
	what, err := c.optString("what")
	if err != nil {
		return nil, err
	}
	ins, ok := inspector.Lookup(what)
	if !ok {
		return nil, fmt.Errorf("unknown inspector %q; what may be %s", what, quotedOr(inspector.Names()))
	}
	v, err := ins.Read(ctx, s.rt, inspector.Query{})
	if err != nil {
		return nil, err
	}
	return ins.Answer(v), nil
}

// quotedOr words names as `"a", "b" or "c"`.
func quotedOr(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// compact compacts the session now ({customInstructions?}, as pi's);
// the answer is pi's compaction result with steer's tokensAfter. It runs
// off the command loop (startCompaction); abort cancels it, and its answer
// then says so, the session unchanged.
func (s *Server) compact(ctx context.Context, c command) (any, error) {
	instructions, err := c.optString("customInstructions")
	if err != nil {
		return nil, err
	}
	end, err := s.rt.Compact(ctx, instructions)
	if err != nil {
		if end.Aborted {
			return nil, errCompactionCancelled
		}
		if errors.Is(err, agent.ErrBusy) {
			return nil, errors.New("cannot compact while a run is active; abort it or wait for it to end")
		}
		return nil, err
	}
	return end.Result, nil
}

// clearQuarantine lifts a context engine's quarantine ({engine}).
func (s *Server) clearQuarantine(ctx context.Context, c command) (any, error) {
	name, err := c.requiredString("engine")
	if err != nil {
		return nil, err
	}
	had, err := s.rt.ClearQuarantine(ctx, name)
	if err != nil {
		return nil, err
	}
	if !had {
		return nil, &runner.NotQuarantinedError{Engine: name}
	}
	return cleared{true}, nil
}

// cleared is the answer of clear_quarantine and clear_cooldown.
type cleared struct {
	Cleared bool `json:"cleared"`
}

// clearCooldown ends an auth profile's cooldown and disabled windows
// ({profile}), as the profiles inspector's clear does; an unknown profile
// fails.
func (s *Server) clearCooldown(ctx context.Context, c command) (any, error) {
	id, err := c.requiredString("profile")
	if err != nil {
		return nil, err
	}
	if err := s.rt.ClearProfile(ctx, id); err != nil {
		return nil, err
	}
	return cleared{true}, nil
}

// approve answers a tool_approval_request: {toolCallId, decision: allow |
// always | deny}.
func (s *Server) approve(_ context.Context, c command) (any, error) {
	id, err := c.requiredString("toolCallId")
	if err != nil {
		return nil, err
	}
	word, err := c.requiredString("decision")
	if err != nil {
		return nil, err
	}
	d, err := runner.ParseApprovalDecision(word)
	if err != nil {
		return nil, err
	}
	return nil, s.rt.Approve(id, d)
}
