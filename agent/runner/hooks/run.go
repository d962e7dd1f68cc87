package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// maxOutput bounds what is kept of a hook's stdout and of its stderr: a
// hook that prints without end cannot fill steer's memory.
const maxOutput = 1 << 20

// errTimedOut is the cause of a run's context when the hook's timeout ran
// out, told apart from the run being aborted.
var errTimedOut = errors.New("hook timed out")

// run starts h with `sh -c` in dir with env, writes stdin to it and waits
// for it or its timeout; a hook that outlives its timeout or ctx is killed
// with its process group.
func run(ctx context.Context, h Hook, dir string, env []string, stdin []byte) Verdict {
	ctx, cancel := context.WithTimeoutCause(ctx, h.timeout(), errTimedOut)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", h.Command)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setProcessGroup(cmd)
	cmd.Cancel = func() error {
		killGroup(cmd.Process.Pid)
		return cmd.Process.Kill()
	}
	// A grandchild that escaped the group may hold the pipes open.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	switch {
	case errors.Is(context.Cause(ctx), errTimedOut):
		return Verdict{Problem: fmt.Sprintf("timed out after %v: killed", h.timeout())}
	case ctx.Err() != nil:
		return Verdict{Problem: "cancelled: killed"}
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return Interpret(h.Event, exit.ExitCode(), stdout.String(), stderr.String())
	case err != nil:
		return Verdict{Problem: "could not run: " + err.Error()}
	}
	return Interpret(h.Event, 0, stdout.String(), stderr.String())
}

// capped keeps the first maxOutput bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
