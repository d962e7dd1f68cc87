package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// selfExe is the running binary, which stays the same file even when steer
// is replaced on disk while it runs.
const selfExe = "/proc/self/exe"

// maxReport bounds what the parent reads of a child's refusal.
const maxReport = 4096

// Cmd is one command that runs under a Policy: steer's own binary, started
// with a hidden first argument (see MaybeRunChild), confines itself and then
// executes the program.
type Cmd struct {
	// Cmd is the underlying process. Set its Dir, Env, Stdin, Stdout,
	// Stderr, Cancel, WaitDelay and SysProcAttr (Setpgid and the like) as
	// for any command; Start then adds what the sandbox needs (namespace
	// flags and id mappings, TMPDIR, a descriptor for the child's report)
	// and fills in Args. Start and wait through this type, not Cmd's own
	// methods.
	Cmd *exec.Cmd

	setup    setup
	scope    Scope
	writable []string // every path the command may write, resolved
	policy   Policy
}

// RefusedError is a sandbox child's report that it could not confine
// itself or run the program; nothing of the command ran.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "sandbox: " + e.Reason }

// Command prepares name (looked up in PATH as exec.Command does) with arg
// to run under p in sc, with what Detect found. It fails, running nothing,
// when the kernel cannot enforce p (errors.Is(err, ErrUnenforceable)), or
// when a path of sc.Extra does not exist. sc's paths need not be resolved;
// Command resolves them.
func Command(ctx context.Context, p Policy, sc Scope, name string, arg ...string) (*Cmd, error) {
	return command(ctx, Detect(), p, sc, name, arg...)
}

// command is Command with what the kernel offers given.
func command(ctx context.Context, s Support, p Policy, sc Scope, name string, arg ...string) (*Cmd, error) {
	if os.Getenv(childEnv) != "" {
		return nil, errNotChild
	}
	program, err := exec.LookPath(name)
	if err != nil {
		return nil, err
	}
	if program, err = filepath.Abs(program); err != nil {
		return nil, err
	}
	if sc, err = resolveScope(sc, p); err != nil {
		return nil, err
	}
	st, err := plan(s, p, sc)
	if err != nil {
		return nil, err
	}
	st.Program = program
	if st.NetNS {
		if st.HostNetNS, err = netNSInode(); err != nil {
			return nil, err
		}
	}
	cmd := exec.CommandContext(ctx, selfExe)
	cmd.Args = append([]string{os.Args[0], childArg, ""}, append([]string{name}, arg...)...)
	c := &Cmd{Cmd: cmd, setup: st, scope: sc, policy: p}
	if st.ConfineWrites {
		c.writable = append(append([]string{}, st.Writable...), resolveAll(st.Optional)...)
	}
	return c, nil
}

// resolveScope makes sc's paths absolute with links resolved, as Landlock
// sees them, and checks that those p needs are there.
func resolveScope(sc Scope, p Policy) (Scope, error) {
	var err error
	if p.ConfinesWrites() && (sc.Workspace == "" || sc.TempDir == "") {
		return Scope{}, errors.New("a sandbox that confines writes needs a workspace and a temp directory")
	}
	if sc.Workspace != "" {
		if sc.Workspace, err = resolve(sc.Workspace); err != nil {
			return Scope{}, fmt.Errorf("workspace: %w", err)
		}
	}
	if sc.TempDir != "" {
		if sc.TempDir, err = resolve(sc.TempDir); err != nil {
			return Scope{}, fmt.Errorf("temp directory: %w", err)
		}
	}
	extra := make([]string, len(sc.Extra))
	for i, p := range sc.Extra {
		if !filepath.IsAbs(p) {
			return Scope{}, fmt.Errorf("%s is not an absolute path", p)
		}
		if extra[i], err = resolve(p); err != nil {
			return Scope{}, fmt.Errorf("%s does not exist (to create a file, ask for its directory)", p)
		}
	}
	sc.Extra = extra
	return sc, nil
}

func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// resolveAll resolves the paths that exist and keeps the others as written.
func resolveAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if r, err := resolve(p); err == nil {
			out[i] = r
		} else {
			out[i] = p
		}
	}
	return out
}

// Start starts the command and returns once the child has confined itself
// and executed the program, or with a *RefusedError, after the child has
// exited, when it could not; Wait must not be called then.
func (c *Cmd) Start() error {
	cmd := c.Cmd
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, childEnv+"=1")
	if c.setup.ConfineWrites {
		cmd.Env = append(cmd.Env, "TMPDIR="+c.scope.TempDir)
	}
	if c.setup.NetNS {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		setNamespaces(cmd.SysProcAttr)
	}
	reportR, reportW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer reportR.Close()
	st := c.setup
	st.ErrFD = 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, reportW)
	raw, err := json.Marshal(st)
	if err != nil {
		reportW.Close()
		return err
	}
	cmd.Args[2] = string(raw)
	err = cmd.Start()
	reportW.Close() // the child holds its copy; ours would keep the read from ending
	if err != nil {
		return err
	}
	// The report ends when the child executes the program (its copy is
	// close-on-exec) or exits. It starts with childReady once the child is
	// confined, and goes on with a reason if the program could not run.
	report, err := io.ReadAll(io.LimitReader(reportR, maxReport))
	switch {
	case err == nil && bytes.Equal(report, []byte{childReady}):
		return nil
	case err != nil:
		_ = cmd.Process.Kill()
		report = []byte("cannot read the child's report: " + err.Error())
	case len(report) == 0:
		report = []byte(errNotChild.Error())
	}
	_ = cmd.Wait() // the child has exited or is about to
	return &RefusedError{Reason: string(bytes.TrimPrefix(report, []byte{childReady}))}
}

// Wait waits for the command as exec.Cmd.Wait does.
func (c *Cmd) Wait() error { return c.Cmd.Wait() }

// Run starts the command and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}
