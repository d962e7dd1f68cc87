package checkpoint

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// shadow runs the git binary on the shadow repository: its own GIT_DIR and
// index in the state directory, the workspace as work tree, and no system or
// global configuration, so that nothing the user set up (hooks, fsmonitor,
// aliases) runs and nothing of the user's repository is read or written
// except the work tree's files and their .gitignore files.
type shadow struct {
	git, dir, index, workTree string
}

// env is the environment of every git run: the process's, without any GIT_
// variable it may carry (a steer started from a git hook would otherwise
// write into the user's repository), plus the shadow's.
func (g shadow) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	env = append(env,
		"GIT_DIR="+g.dir, "GIT_WORK_TREE="+g.workTree, "GIT_INDEX_FILE="+g.index,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_LITERAL_PATHSPECS=1",
		"GIT_AUTHOR_NAME="+committerName, "GIT_AUTHOR_EMAIL="+committerEmail,
		"GIT_COMMITTER_NAME="+committerName, "GIT_COMMITTER_EMAIL="+committerEmail,
		"GIT_TERMINAL_PROMPT=0")
	env = append(env, fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(config)))
	for i, kv := range config {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, kv[1]))
	}
	return env
}

// config is the settings of every git run, given in the environment so
// that a shadow repository made before a setting came applies it too.
var config = [][2]string{
	// The index is split in two files: a write (a snapshot makes up to
	// two) hashes and writes only the entries changed since the shared
	// one was written, not all (80 bytes a file, 800 KB for 10,000).
	{"core.splitIndex", "true"},
	// No shared index file is deleted: git deletes those unused for two
	// weeks, the one an idle session's index needs too. What this keeps
	// is an old one each time a fifth of the entries changed, some 400
	// bytes per change, less than the changed file's own copy.
	{"splitIndex.sharedIndexExpire", "never"},
}

// run runs git with args in the work tree, stdin as its input, and returns
// its output; a failure's error carries git's own words.
func (g shadow) run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, g.git, args...)
	cmd.Dir = g.workTree
	cmd.Env = g.env()
	cmd.Stdin = stdin
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(errOut.String()))
	}
	return out.Bytes(), nil
}

// line is run's output without its trailing newline.
func (g shadow) line(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	out, err := g.run(ctx, stdin, args...)
	return strings.TrimSpace(string(out)), err
}

// nulSplit splits git's -z output into its fields.
func nulSplit(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// nulJoin is paths as git's --pathspec-file-nul and -z --stdin read them.
func nulJoin(paths []string) io.Reader {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return strings.NewReader(b.String())
}
