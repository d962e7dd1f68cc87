package runner

import (
	"context"
	"errors"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// ErrNoShellCommand refuses a shell input with no command.
var ErrNoShellCommand = errors.New("no command to run: type it after the ! (!!cmd keeps its output from the model)")

// Shell runs command as the user's own (`!cmd`; `!!cmd` when private)
// through the session's bash tool — its approval policy, workspace and
// output limits — and records it with its output, which the model sees in
// its next request unless private. While a run is active it is queued like
// a follow-up and runs when the agent would stop; queued says which. It
// returns once the input is saved as a pending input, so a queued command
// survives a restart.
func (in *inputs) Shell(ctx context.Context, command string, private bool) (item agent.QueueItem, queued bool, err error) {
	command = strings.TrimSpace(command)
	if command == "" {
		return agent.QueueItem{}, false, ErrNoShellCommand
	}
	kind := agent.QueueShell
	if private {
		kind = agent.QueueShellPrivate
	}
	return in.deliver(ctx, kind, command, nil)
}

// Shell runs a shell command in the current session (inputs.Shell).
func (c *currentSession) Shell(ctx context.Context, command string, private bool) (agent.QueueItem, bool, error) {
	rt, err := c.input()
	if err != nil {
		return agent.QueueItem{}, false, err
	}
	return rt.Shell(ctx, command, private)
}
