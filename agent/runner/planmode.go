package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/persistence"
)

// Plan mode (tools.ModePlan) is a session's approval mode while the model
// plans: only calls that change nothing run, and the model writes its plan
// to the session's plan file, <PlanDir>/<session id>.md, the one write the
// gate lets through. While it is on, every request's system prompt says so
// and names the file (planNote). When a write or an edit of the file ends
// well, the runner publishes the plan (AnnotationPlan, in the run's stream
// before the call's tool_execution_end) to every front end. Approving the
// plan (ApprovePlan) switches the session to the mode the user picks and
// sends the plan, read again from the file so that the user's edits count,
// as the next instruction. Every switch of the mode is a notice
// (NoticeApprovalMode) and an entry of the session's tree
// (persistence.EntryApprovalChange).

// AnnotationPlan is the annotation a write or an edit of the plan file
// emits in plan mode; its Data is a PlanInfo.
const AnnotationPlan = "plan"

// NoticeApprovalMode: the session's approval mode changed; Data is an
// ApprovalModeInfo.
const NoticeApprovalMode NoticeKind = "approval_mode"

// ApprovalMode is a session's approval mode (tools.Mode), for front ends,
// which reach the tools only through the runner.
type ApprovalMode = tools.Mode

// The approval modes.
const (
	ApprovalAsk   = tools.ModeAsk
	ApprovalAuto  = tools.ModeAuto
	ApprovalNever = tools.ModeNever
	ApprovalPlan  = tools.ModePlan
)

// PlanInfo is the plan the model wrote: the plan file and its text.
type PlanInfo struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// ApprovalModeInfo is a session's approval mode, with its plan file (set
// in plan mode only).
type ApprovalModeInfo struct {
	SessionID string     `json:"sessionId"`
	Mode      tools.Mode `json:"mode"`
	PlanFile  string     `json:"planFile,omitempty"`
}

// PlanInstruction is what approving a plan sends: the plan as the next
// instruction.
func PlanInstruction(plan string) string {
	return "Carry out this plan:\n\n" + strings.TrimSpace(plan)
}

// ErrNoPlan is ApprovePlan's error when the plan file holds no plan.
var ErrNoPlan = errors.New("no plan has been written")

// planDesk is the runtime's part for the approval mode: the mode the
// session's gate judges by now, and plan mode's file and prompt. It calls
// the gate, the session's id, the notices and the session's follow-up
// input, nothing else.
type planDesk struct {
	dir       string // the plan files' directory
	workspace string // what relative paths of a call are under
	sessionID func() string
	gate      func() tools.Gater
	tell      func(kind NoticeKind, text string, data any)
	// record writes the switch into the session's tree.
	record   func(mode tools.Mode)
	followUp func(ctx context.Context, text string, images ...agent.Content) (agent.QueueItem, bool, error)

	modeMu sync.Mutex
	mode   tools.Mode
}

// plansSubdir is where plan files live under the state directory.
const plansSubdir = "plans"

// planDirOf is the plan files' directory of Options.PlanDir.
func planDirOf(dir string) string {
	if dir == "" {
		return filepath.Join(os.TempDir(), "steer-"+plansSubdir)
	}
	return dir
}

// PlanDirIn is the plan files' directory of state directory stateDir.
func PlanDirIn(stateDir string) string { return filepath.Join(stateDir, plansSubdir) }

// ApprovalMode is the session's approval mode now.
func (d *planDesk) ApprovalMode() tools.Mode {
	d.modeMu.Lock()
	defer d.modeMu.Unlock()
	return d.mode
}

// PlanFile is the session's plan file, resolved as the gate compares it;
// it need not exist.
func (d *planDesk) PlanFile() string { return d.planFileOf(d.sessionID()) }

// planFileOf is session id's plan file.
func (d *planDesk) planFileOf(id string) string {
	return tools.ResolvePlanFile(filepath.Join(d.dir, id+".md"))
}

// SetApprovalMode switches the session's approval mode; the next call is
// judged by it, and the next request's prompt says whether plan mode is on.
func (d *planDesk) SetApprovalMode(mode tools.Mode) error {
	if _, err := tools.ParseApproval(string(mode)); err != nil {
		return err
	}
	id := d.sessionID() // before modeMu: the session's lock is never taken under it
	d.modeMu.Lock()
	d.mode = mode
	info := d.applyModeLocked(id) // under the lock: two switches cannot cross on the gate
	d.modeMu.Unlock()
	d.record(mode)
	d.tell(NoticeApprovalMode, modeText(info), info)
	return nil
}

// recordApproval records a switch of the approval mode in the session's
// tree, once the session has its row (before its first input there is no
// tree to record it in; the mode is in force all the same).
func (r *Runtime) recordApproval(mode tools.Mode) {
	if r.store == nil {
		return
	}
	if id, created := r.row(); created {
		_, err := r.store.AppendMarker(r.writes.ctx, id, persistence.EntryApprovalChange, persistence.Marker{Approval: string(mode)})
		r.writes.saved("recording the change of tool approval", err)
	}
}

// applyMode puts the mode into the session's gate (a new gate after a
// session change gets it too) and says where it stands.
func (d *planDesk) applyMode() ApprovalModeInfo {
	id := d.sessionID()
	d.modeMu.Lock()
	defer d.modeMu.Unlock()
	return d.applyModeLocked(id)
}

// applyModeLocked is applyMode of session id for a caller that holds
// modeMu.
func (d *planDesk) applyModeLocked(id string) ApprovalModeInfo {
	mode := d.mode
	info := ApprovalModeInfo{SessionID: id, Mode: mode}
	if mode == tools.ModePlan {
		info.PlanFile = d.planFileOf(id)
	}
	d.gate().SetMode(mode, info.PlanFile)
	return info
}

// modeText words a switch of mode for people.
func modeText(i ApprovalModeInfo) string {
	if i.Mode == tools.ModePlan {
		return "plan mode: only read-only tools run; the plan goes to " + i.PlanFile
	}
	return fmt.Sprintf("tool approval is %s", i.Mode)
}

// ApprovePlan approves the session's plan: it reads the plan file again,
// switches to mode (ask or auto) and sends the plan as a follow-up (see
// PlanInstruction), which starts a run when none is active.
func (d *planDesk) ApprovePlan(ctx context.Context, mode tools.Mode) (agent.QueueItem, bool, error) {
	if mode != tools.ModeAsk && mode != tools.ModeAuto {
		return agent.QueueItem{}, false, fmt.Errorf("a plan is approved into %q or %q, not %q", tools.ModeAsk, tools.ModeAuto, mode)
	}
	path := d.PlanFile()
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist) || (err == nil && strings.TrimSpace(string(raw)) == ""):
		return agent.QueueItem{}, false, fmt.Errorf("%w to %s yet", ErrNoPlan, path)
	case err != nil:
		return agent.QueueItem{}, false, fmt.Errorf("read the plan: %w", err)
	}
	if err := d.SetApprovalMode(mode); err != nil {
		return agent.QueueItem{}, false, err
	}
	return d.followUp(ctx, PlanInstruction(string(raw)))
}

// prompt is base with plan mode's note while plan mode is on.
func (d *planDesk) prompt(base string) string {
	if d.ApprovalMode() != tools.ModePlan {
		return base
	}
	return joinPrompt(base, planNote(d.PlanFile()))
}

// planNote tells the model it is in plan mode and where the plan goes.
func planNote(path string) string {
	return "<plan-mode>\nPlan mode is on: only read-only tools run (read, ls, find, grep, todo, fetch and tools " +
		"that change nothing); every other call is refused until the user approves a plan. Look at what you need, " +
		"then write your plan as Markdown (the steps, the files to change, how to check the work) with the write tool " +
		"to exactly this file:\n" + path + "\nThen stop: the user reads the plan and approves it or asks you to change it.\n</plan-mode>"
}

// published emits the plan when a call of tool with args, which ended with
// res, wrote the plan file in plan mode. It runs on the call's goroutine,
// inside its Execute (agent.ToolAnnotate).
func (d *planDesk) published(ctx context.Context, tool string, args map[string]any, res agent.ToolResult) {
	if res.IsError || (tool != "write" && tool != "edit") || d.ApprovalMode() != tools.ModePlan {
		return
	}
	p, _ := args["path"].(string)
	if p == "" {
		return
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.workspace, p)
	}
	path := d.PlanFile()
	if tools.ResolvePlanFile(p) != path {
		return
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return
	}
	agent.ToolAnnotate(ctx, agent.Annotation{Kind: AnnotationPlan, Data: PlanInfo{Path: path, Text: string(raw)}})
}

// ApprovalMode is the current session's approval mode (planDesk).
func (c *currentSession) ApprovalMode() tools.Mode { return c.current().ApprovalMode() }

// PlanFile is the current session's plan file.
func (c *currentSession) PlanFile() string { return c.current().PlanFile() }

// SetApprovalMode switches the current session's approval mode; a
// sub-agent's session shown keeps its own.
func (c *currentSession) SetApprovalMode(mode tools.Mode) error {
	rt, err := c.input()
	if err != nil {
		return err
	}
	return rt.SetApprovalMode(mode)
}

// ApprovePlan approves the current session's plan into mode.
func (c *currentSession) ApprovePlan(ctx context.Context, mode tools.Mode) (agent.QueueItem, bool, error) {
	rt, err := c.input()
	if err != nil {
		return agent.QueueItem{}, false, err
	}
	return rt.ApprovePlan(ctx, mode)
}
