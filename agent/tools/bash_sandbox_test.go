package tools

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/steer-tui/steer/agent/tools/sandbox"
)

// TestMain lets this test binary be the sandbox's child, and gives the
// temp directories the bash tools make a home the run removes.
func TestMain(m *testing.M) {
	sandbox.MaybeRunChild()
	tmp, err := os.MkdirTemp("", "tools-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// requireSandbox skips the test, saying why, on a kernel that cannot
// enforce p: the one case a sandbox test may not run.
func requireSandbox(t *testing.T, p sandbox.Policy) {
	t.Helper()
	if err := sandbox.Detect().Check(p); err != nil {
		t.Skipf("this kernel cannot enforce the sandbox: %v", err)
	}
}

// outsidePath is a path outside every workspace and temp directory that
// the test process itself could create: in /etc when the tests run as root,
// as issue 31 has it, else in a directory of the test's own.
func outsidePath(t *testing.T, name string) string {
	t.Helper()
	dir := "/etc"
	if unix.Access(dir, unix.W_OK) != nil {
		dir = t.TempDir()
	}
	p := filepath.Join(dir, name)
	os.Remove(p)
	t.Cleanup(func() { os.Remove(p) })
	return p
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

func TestBashSandboxWrites(t *testing.T) {
	workspaceWrite := sandbox.Policy{Mode: sandbox.WorkspaceWrite}
	readOnly := sandbox.Policy{Mode: sandbox.ReadOnly}
	requireSandbox(t, workspaceWrite)
	tests := []struct {
		name   string
		policy sandbox.Policy
		// command and want, the whole result text, name the outside path
		// {out} ({tuo} spelt backwards, for commands that build it at run
		// time), its directory {dir} and the workspace {ws}.
		command string
		want    string
	}{
		{name: "touch outside", policy: workspaceWrite, command: "touch {out}",
			want: "touch: cannot touch '{out}': Permission denied\n\n[exit code 1]\n" +
				"blocked by the sandbox: write to {out}\n" +
				`to ask the user for write access, call bash again with "allowWrite": ["{dir}"]`},
		{name: "redirect outside", policy: workspaceWrite, command: "echo x > {out}",
			want: "bash: line 1: {out}: Permission denied\n\n[exit code 1]\n" +
				"blocked by the sandbox: write to {out}\n" +
				`to ask the user for write access, call bash again with "allowWrite": ["{dir}"]`},
		{name: "a path built at run time by bash", policy: workspaceWrite,
			command: `s='{tuo}'; p=; for ((i=${#s}-1; i>=0; i--)); do p+=${s:i:1}; done; touch "$p"`,
			want: "touch: cannot touch '{out}': Permission denied\n\n[exit code 1]\n" +
				"blocked by the sandbox: write to {out}\n" +
				`to ask the user for write access, call bash again with "allowWrite": ["{dir}"]`},
		{name: "a path built at run time by perl", policy: workspaceWrite,
			command: `perl -e '$p = reverse $ARGV[0]; open(my $f, ">", $p) or die "cannot write $p: $!\n"' '{tuo}'`,
			want: "cannot write {out}: Permission denied\n\n[exit code 13]\n" +
				"blocked by the sandbox: write to {out}\n" +
				`to ask the user for write access, call bash again with "allowWrite": ["{dir}"]`},
		{name: "the workspace is writable", policy: workspaceWrite, command: "touch x && mkdir d && mv x d/y && rm -r d && echo ok",
			want: "ok"},
		{name: "TMPDIR is writable", policy: workspaceWrite, command: `touch "$TMPDIR/t" && mktemp >/dev/null && echo ok`,
			want: "ok"},
		{name: "the devices are writable", policy: readOnly,
			command: "echo x > /dev/null && head -c1 /dev/zero >/dev/null && echo out > /dev/stdout && echo err > /dev/stderr",
			want:    "out\nerr"},
		{name: "read-only keeps the workspace", policy: readOnly, command: "touch x",
			want: "touch: cannot touch 'x': Permission denied\n\n[exit code 1]\n" +
				"blocked by the sandbox: write to {ws}/x\n" +
				`to ask the user for write access, call bash again with "allowWrite": ["{ws}"]`},
		{name: "read-only keeps TMPDIR", policy: readOnly, command: `echo x > "$TMPDIR/t" && cat "$TMPDIR/t"`,
			want: "x"},
		{name: "reads are everywhere", policy: readOnly, command: "head -c 4 /etc/passwd", want: "root"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			name := "steer-test" // the first case's is the one issue 31 names
			if i > 0 {
				name += "-" + strconv.Itoa(i)
			}
			outside := outsidePath(t, name)
			tool := Bash(ws, WithSandbox(tt.policy))
			realWs, _ := filepath.EvalSymlinks(ws)
			fill := strings.NewReplacer("{out}", outside, "{tuo}", reverse(outside), "{dir}", filepath.Dir(outside), "{ws}", realWs).Replace
			r := execute(t, tool, map[string]any{"command": fill(tt.command)})
			want := fill(tt.want)
			if got := text(r); got != want {
				t.Errorf("result:\n%s\nwant:\n%s", got, want)
			}
			if _, err := os.Stat(outside); err == nil {
				t.Errorf("%s exists", outside)
			}
		})
	}
}

func TestBashSandboxAllowWrite(t *testing.T) {
	p := sandbox.Policy{Mode: sandbox.WorkspaceWrite}
	requireSandbox(t, p)
	ws, granted := t.TempDir(), t.TempDir()
	tool := Bash(ws, WithSandbox(p))
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		isError bool
	}{
		{name: "a granted directory is writable",
			args: map[string]any{"command": "touch " + granted + "/new && echo ok", "allowWrite": []any{granted}}, want: "ok"},
		{name: "the grant lasts one call",
			args:    map[string]any{"command": "touch " + granted + "/again"},
			want:    "touch: cannot touch '" + granted + "/again': Permission denied\n\n[exit code 1]\nblocked by the sandbox: write to " + granted + "/again\nto ask the user for write access, call bash again with \"allowWrite\": [\"" + granted + "\"]",
			isError: true},
		{name: "a missing path is refused", args: map[string]any{"command": "true", "allowWrite": []any{granted + "/none"}},
			want:    "cannot run bash in the sandbox: " + granted + "/none does not exist (to create a file, ask for its directory)",
			isError: true},
		{name: "a relative path is refused", args: map[string]any{"command": "true", "allowWrite": []any{"rel"}},
			want: "cannot run bash in the sandbox: rel is not an absolute path", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := execute(t, tool, tt.args)
			if got := text(r); got != tt.want || r.IsError != tt.isError {
				t.Errorf("result (error %v):\n%s\nwant (error %v):\n%s", r.IsError, got, tt.isError, tt.want)
			}
		})
	}
}

func TestBashSandboxTempDirIsTheTools(t *testing.T) {
	p := sandbox.Policy{Mode: sandbox.WorkspaceWrite}
	requireSandbox(t, p)
	tool := Bash(t.TempDir(), WithSandbox(p))
	first := text(execute(t, tool, map[string]any{"command": `echo kept > "$TMPDIR/f"; echo "$TMPDIR"`}))
	second := text(execute(t, tool, map[string]any{"command": `cat "$TMPDIR/f"; echo "$TMPDIR"`}))
	if second != "kept\n"+first || !strings.Contains(first, "steer-bash-") {
		t.Errorf("TMPDIR %q then %q, want one steer-bash- directory kept across calls", first, second)
	}
	other := text(execute(t, Bash(t.TempDir(), WithSandbox(p)), map[string]any{"command": `echo "$TMPDIR"`}))
	if other == first {
		t.Errorf("two tools share TMPDIR %q", first)
	}
}

func TestBashSandboxNetwork(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "reached") }))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	// bash's own /dev/tcp, so that no client program is needed.
	command := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && tail -n1 <&3`, port)
	tests := []struct {
		name    string
		policy  sandbox.Policy
		want    string // the result's last line
		isError bool
	}{
		{name: "allowed", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite}, want: "reached"},
		{name: "denied", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: sandbox.Deny},
			want: "blocked by the sandbox: network", isError: true},
		{name: "denied without confining writes", policy: sandbox.Policy{Network: sandbox.Deny},
			want: "blocked by the sandbox: network", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireSandbox(t, tt.policy)
			r := execute(t, Bash(t.TempDir(), WithSandbox(tt.policy)), map[string]any{"command": command})
			got := text(r)
			if lines := strings.Split(got, "\n"); lines[len(lines)-1] != tt.want || r.IsError != tt.isError {
				t.Errorf("result (error %v):\n%s\nwant its last line %q (error %v)", r.IsError, got, tt.want, tt.isError)
			}
		})
	}
}

// TestBashSandboxStops stops sandboxed commands the way TestBashStops
// does plain ones: the whole process group dies, namespaces or not.
func TestBashSandboxStops(t *testing.T) {
	tests := []struct {
		name    string
		policy  sandbox.Policy
		timeout float64 // seconds; 0 means the test aborts instead
		want    string
	}{
		{name: "timeout", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite}, timeout: 0.3,
			want: "started\n\n[timed out after 300ms]"},
		{name: "abort", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: sandbox.Deny},
			want: "started\n\n[aborted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireSandbox(t, tt.policy)
			ws := t.TempDir()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			args := map[string]any{"command": "sleep 30 & echo $! > pid; echo started; wait"}
			if tt.timeout > 0 {
				args["timeout"] = tt.timeout
			}
			updates, result := run(ctx, Bash(ws, WithSandbox(tt.policy)), args)
			awaitUpdate(t, updates, "started")
			if tt.timeout == 0 {
				cancel()
			}
			r := awaitResult(t, result, 2*time.Second)
			if got := text(r); got != tt.want || !r.IsError {
				t.Errorf("result %q (error %v), want %q", got, r.IsError, tt.want)
			}
			pid := readPid(t, filepath.Join(ws, "pid"))
			eventually(t, time.Second, "the background child to die", func() bool { return processGone(pid) })
		})
	}
}

func TestBashSandboxSpec(t *testing.T) {
	off := Bash(t.TempDir()).Spec()
	tests := []struct {
		name       string
		policy     sandbox.Policy
		allowWrite bool
		note       string
	}{
		{name: "off", policy: sandbox.Policy{}},
		{name: "workspace-write", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite}, allowWrite: true, note: sandboxNote},
		{name: "network only", policy: sandbox.Policy{Network: sandbox.Deny}, note: networkNote},
		{name: "both", policy: sandbox.Policy{Mode: sandbox.ReadOnly, Network: sandbox.Deny}, allowWrite: true, note: sandboxNote + networkNote},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := Bash(t.TempDir(), WithSandbox(tt.policy)).Spec()
			if spec.Description != off.Description+tt.note {
				t.Errorf("description %q, want the plain one followed by %q", spec.Description, tt.note)
			}
			if got := strings.Contains(string(spec.Parameters), `"allowWrite"`); got != tt.allowWrite {
				t.Errorf("allowWrite in the schema: %v, want %v", got, tt.allowWrite)
			}
		})
	}
}

func TestAllowWritePaths(t *testing.T) {
	tests := []struct {
		name string
		args map[string]any
		want []string
	}{
		{name: "absent", args: map[string]any{"command": "ls"}},
		{name: "from JSON", args: map[string]any{"allowWrite": []any{"/a", "/b/c"}}, want: []string{"/a", "/b/c"}},
		{name: "built by hand", args: map[string]any{"allowWrite": []string{"/a"}}, want: []string{"/a"}},
		{name: "not strings", args: map[string]any{"allowWrite": []any{1.0, "/a"}}, want: []string{"/a"}},
		{name: "not a list", args: map[string]any{"allowWrite": "/a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AllowWritePaths(tt.args); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("AllowWritePaths = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBashDescribeAllowWrite(t *testing.T) {
	ws := t.TempDir()
	tool := Bash(ws, WithSandbox(sandbox.Policy{Mode: sandbox.WorkspaceWrite})).(Describer)
	got := tool.Describe(map[string]any{"command": "touch /etc/x", "allowWrite": []any{"/etc"}})
	want := Access{Paths: []string{newWorkspace(ws).root, "/etc"}, Outside: true, Mutating: true,
		Summary: "bash: touch /etc/x (write: /etc)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %+v, want %+v", got, want)
	}
	if plain := tool.Describe(map[string]any{"command": "ls"}); plain.Outside || len(plain.Paths) != 1 {
		t.Errorf("Describe without allowWrite = %+v, want the workspace only", plain)
	}
}

// BenchmarkBashSandbox is one `true` through the bash tool, plain and
// sandboxed (the test binary is the child here; steer's own binary adds
// its package initialisation).
func BenchmarkBashSandbox(b *testing.B) {
	for _, bc := range []struct {
		name   string
		policy sandbox.Policy
	}{
		{name: "off", policy: sandbox.Policy{}},
		{name: "workspace-write", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite}},
		{name: "workspace-write+network-deny", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: sandbox.Deny}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if err := sandbox.Detect().Check(bc.policy); err != nil {
				b.Skipf("this kernel cannot enforce the sandbox: %v", err)
			}
			tool := Bash(b.TempDir(), WithSandbox(bc.policy))
			for b.Loop() {
				r, err := tool.Execute(context.Background(), "call-1", map[string]any{"command": "true"}, nil)
				if err != nil || r.IsError {
					b.Fatalf("%v %q", err, text(r))
				}
			}
		})
	}
}
