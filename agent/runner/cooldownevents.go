package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// Cooldowns as events, so that every front end hears of them instead of
// reading the ledger again (SPEC §5.3, §12):
//
//	cooldown {profile, model?, state, reason, until, source}
//	    a failed attempt opened, lengthened or widened a window of the
//	    shared ledger: state is "cooldown" or "disabled", model the model a
//	    cooldown is scoped to (absent: the whole profile), until its end;
//	    source says where that end came from — "schedule" (the ledger's
//	    30 s → 1 min → 5 min steps, the disabled track's backoff) or the
//	    response header whose hint made it longer ("retry-after",
//	    "x-ratelimit-reset-tokens" …), the vocabulary of the inspectors'
//	    untilSource. It goes out on the request's stream, right after the
//	    attempt that caused it, like the attempt loop's other annotations.
//	cooldown_cleared {profile, model?, source}
//	    a window ended before its time or was found over: source "user" (a
//	    clear: /profiles → c, rpc clear_cooldown) or "expired" (a window
//	    that had ended, cleared from the ledger before ordering). Neither
//	    belongs to a request, so it goes out as a runtime notice
//	    (NoticeCooldownCleared, Data the CooldownCleared), which the TUI,
//	    rpc and steer run all hear. `steer inspect profiles --clear` runs in
//	    a process of its own and says what it cleared on stdout.
const (
	AnnotationCooldown                   = "cooldown"
	NoticeCooldownCleared     NoticeKind = "cooldown_cleared"
	AnnotationCooldownCleared            = string(NoticeCooldownCleared)
)

// The sources of cooldown_cleared.
const (
	ClearedByUser  = "user"
	ClearedExpired = "expired"
)

// CooldownInfo is the Data of cooldown.
type CooldownInfo struct {
	Profile string    `json:"profile"`
	Model   string    `json:"model,omitempty"`
	State   string    `json:"state"`
	Reason  string    `json:"reason"`
	Until   time.Time `json:"until"`
	Source  string    `json:"source"`
}

// Line words the cooldown for a line of its own, the until in local time:
// "cooldown: openai:a/gpt-4.1 rate_limit until 15:04:05".
func (i CooldownInfo) Line() string {
	return fmt.Sprintf("cooldown: %s %s until %s", profileRef(i.Profile, i.Model), i.Reason, i.Until.Local().Format(time.TimeOnly))
}

// CooldownCleared is the Data of cooldown_cleared.
type CooldownCleared struct {
	Profile string `json:"profile"`
	Model   string `json:"model,omitempty"`
	Source  string `json:"source"`
}

// Line words the clear for a line of its own: "cooldown cleared:
// openai:a/gpt-4.1 (expired)".
func (c CooldownCleared) Line() string {
	return fmt.Sprintf("cooldown cleared: %s (%s)", profileRef(c.Profile, c.Model), c.Source)
}

// profileRef is PROFILE, or PROFILE/MODEL for a window scoped to a model.
func profileRef(profile, model string) string {
	if model == "" {
		return profile
	}
	return profile + "/" + model
}

// windowChange is the cooldown event that a ledger update from before to
// after makes at now: one when after has a window that before did not have
// as it is — opened, lengthened, widened to the whole profile, or turned
// into a disabled one. An update that leaves the window as it was (an
// active window is not extended by failures inside it) says nothing.
func windowChange(id string, before, after failover.ProfileState, now time.Time) (CooldownInfo, bool) {
	was, is := before.Status(now), after.Status(now)
	if is.State == failover.StateAvailable || sameWindow(was, is) {
		return CooldownInfo{}, false
	}
	return CooldownInfo{Profile: id, Model: is.Model, State: is.State, Reason: is.Reason.String(),
		Until: is.Until.UTC(), Source: after.UntilSource(now)}, true
}

func sameWindow(a, b failover.ProfileStatus) bool {
	return a.State == b.State && a.Reason == b.Reason && a.Model == b.Model && a.Until.Equal(b.Until)
}

// announceCooldown puts a cooldown event into the request's stream, and
// into the stream a compaction's summary request was made for: the
// summariser reads its own stream for the text alone, so a window its
// request opened would reach no front end otherwise.
func announceCooldown(ctx context.Context, out *agent.AssistantStream, info CooldownInfo) {
	if out != nil {
		annotate(ctx, out, AnnotationCooldown, info)
	}
	if sink, ok := ctx.Value(cooldownSinkKey{}).(func(CooldownInfo)); ok {
		sink(info)
	}
}

type cooldownSinkKey struct{}

// withCooldownSink makes the cooldowns that requests under ctx open reach
// sink as well (a compaction's summary requests: compactRequest, Compact).
func withCooldownSink(ctx context.Context, sink func(CooldownInfo)) context.Context {
	return context.WithValue(ctx, cooldownSinkKey{}, sink)
}
