package runner

import (
	"reflect"

	"github.com/steer-tui/steer/agent/tools"
)

// The runner's facts: what it knows about its state that a front end
// shows, published as events built from the state it holds, so that no
// front end reconstructs them by reading the database (the TUI reads the
// ledger and the quarantines again only when another process changed them:
// StoreVersion). A fact goes out on one of two channels:
//
//   - stream: an agent.Annotation in the request's event stream, in order
//     with the response (Subscribe; rpc and `steer run --json` events);
//   - notice: a Notice, for what belongs to no request (SubscribeNotices;
//     rpc and `--json` events too, a line on stderr for `steer run`).
//
// Each row names the event, its Data, its channel and when it is sent; the
// constants and types are defined where the facts are made.
//
//	event                   Data              channel  sent when (defined in)
//	cooldown                CooldownInfo      stream   an attempt opened, lengthened or widened a
//	                                                   window of the shared ledger (cooldownevents.go)
//	cooldown_cleared        CooldownCleared   notice   a window was cleared by the user or found
//	                                                   over before ordering (cooldownevents.go)
//	quarantine              QuarantineInfo    stream   a context engine failed during a request and
//	                                                   was quarantined (engines.go)
//	quarantine              QuarantineInfo    notice   it failed outside a request (notice.go)
//	lane_wait               LaneWait          stream   a run waits for a lane; again whenever its
//	                                                   place in the queue changes (lanewait.go)
//	lane_wait_end           LaneWaitEnd       stream   it got its lanes, or gave up (lanewait.go)
//	compaction_start        CompactionStart   stream   a compaction begins (compact.go)
//	compaction_end          CompactionEnd     stream   it ended: result, abort, error (compact.go)
//	compaction              CompactionEnd     notice   a compaction ran after the run, in the
//	                                                   background (compact_background.go)
//	tool_approval_request   ApprovalRequest   stream   a tool call waits for the user's answer
//	                                                   (approval.go)
//	tool_approval_resolved  ApprovalResolved  stream   the wait ended: answered, or cut short
//	                                                   (approval.go)
//	budget                  BudgetInfo        stream   a request was not sent for the spend cap, or an
//	                                                   unpriced model's dollar cap is noted (budget.go)
//	run_stalled             StallInfo         notice   a run made no progress for StallAfter
//	                                                   (stalled.go)
//	run_resumed             StallInfo         notice   a stalled run made progress again (stalled.go)
//	hook                    HookOutcome       notice   a hook blocked, denied or asked, or failed or
//	                                                   was killed (hookcalls.go)
//	todo                    TodoList          stream   a todo call replaced the session's todo list
//	                                                   (agent/tools/todo.go; todo.go)
//	plan                    PlanInfo          stream   a write or edit of the plan file ended well in
//	                                                   plan mode (planmode.go)
//	approval_mode           ApprovalModeInfo  notice   the session's approval mode changed
//	                                                   (planmode.go)
//
// Facts is the same table as data, which the tests hold to the constants.

// FactChannel is how a fact reaches front ends.
type FactChannel string

// The channels.
const (
	FactStream FactChannel = "stream" // an agent.Annotation of the request's stream
	FactNotice FactChannel = "notice" // a runtime Notice
)

// Fact is one row of the table: the event's name (the annotation's Kind,
// or the notice's), the type of its Data, and its channel.
type Fact struct {
	Name    string
	Data    reflect.Type
	Channel FactChannel
}

// Facts lists the runner's facts in the order of the table above.
var Facts = []Fact{
	{AnnotationCooldown, reflect.TypeFor[CooldownInfo](), FactStream},
	{string(NoticeCooldownCleared), reflect.TypeFor[CooldownCleared](), FactNotice},
	{AnnotationQuarantine, reflect.TypeFor[QuarantineInfo](), FactStream},
	{string(NoticeQuarantine), reflect.TypeFor[QuarantineInfo](), FactNotice},
	{AnnotationLaneWait, reflect.TypeFor[LaneWait](), FactStream},
	{AnnotationLaneWaitEnd, reflect.TypeFor[LaneWaitEnd](), FactStream},
	{AnnotationCompactionStart, reflect.TypeFor[CompactionStart](), FactStream},
	{AnnotationCompactionEnd, reflect.TypeFor[CompactionEnd](), FactStream},
	{string(NoticeCompaction), reflect.TypeFor[CompactionEnd](), FactNotice},
	{AnnotationApprovalRequest, reflect.TypeFor[ApprovalRequest](), FactStream},
	{AnnotationApprovalResolved, reflect.TypeFor[ApprovalResolved](), FactStream},
	{AnnotationBudget, reflect.TypeFor[BudgetInfo](), FactStream},
	{string(NoticeRunStalled), reflect.TypeFor[StallInfo](), FactNotice},
	{string(NoticeRunResumed), reflect.TypeFor[StallInfo](), FactNotice},
	{string(NoticeHook), reflect.TypeFor[HookOutcome](), FactNotice},
	{AnnotationTodo, reflect.TypeFor[tools.TodoList](), FactStream},
	{AnnotationPlan, reflect.TypeFor[PlanInfo](), FactStream},
	{string(NoticeApprovalMode), reflect.TypeFor[ApprovalModeInfo](), FactNotice},
}
