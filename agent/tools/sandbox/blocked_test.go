package sandbox

import (
	"path/filepath"
	"reflect"
	"testing"
)

// fakeFS is a file system of a few paths without links, for judge.
type fakeFS struct {
	exists   map[string]bool
	readOnly map[string]bool // paths steer itself cannot write either
}

func (f fakeFS) locate(p string) (string, bool, string) {
	if f.exists[p] {
		return p, true, filepath.Dir(p)
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if f.exists[d] || d == "/" {
			return p, false, d
		}
	}
}

func (f fakeFS) canWrite(p string) bool { return !f.readOnly[p] }

// Outputs below are what the programs printed when the sandbox stopped
// them on Linux 6.18 (coreutils 9, bash 5, Python 3, Perl 5, Node, Go,
// curl, git), and lines that must not be blamed on it.
func TestBlocked(t *testing.T) {
	fs := fakeFS{
		exists: set("/", "/etc", "/etc/hostname", "/etc/shadow", "/tmp", "/tmp/outside", "/tmp/outside/f",
			"/ws", "/ws/x", "/tmp/t", "/ro", "/dev", "/dev/null"),
		readOnly: set("/etc/shadow", "/ro"),
	}
	write := func(path, grant string) Block { return Block{Path: path, Grant: grant} }
	network := Block{}
	tests := []struct {
		name     string
		output   string
		readOnly bool // the workspace is not writable (ReadOnly)
		netDeny  bool
		want     []Block
	}{
		{name: "touch", output: "touch: cannot touch '/etc/steer-test': Permission denied", want: []Block{write("/etc/steer-test", "/etc")}},
		{name: "mkdir, UTF-8 quotes", output: "mkdir: cannot create directory ‘/etc/d’: Permission denied", want: []Block{write("/etc/d", "/etc")}},
		{name: "rm needs the directory", output: "rm: cannot remove '/tmp/outside/f': Permission denied", want: []Block{write("/tmp/outside/f", "/tmp/outside")}},
		{name: "mv names the source first", output: "mv: cannot move '/tmp/outside/f' to '/tmp/outside/g': Permission denied",
			want: []Block{write("/tmp/outside/f", "/tmp/outside")}},
		{name: "mv out of the workspace names the target", output: "mv: cannot move 'x' to '/etc/x': Permission denied",
			want: []Block{write("/etc/x", "/etc")}},
		{name: "cp", output: "cp: cannot create regular file '/etc/h2': Permission denied", want: []Block{write("/etc/h2", "/etc")}},
		{name: "ln", output: "ln: failed to create symbolic link '/etc/l': Permission denied", want: []Block{write("/etc/l", "/etc")}},
		{name: "tee", output: "x\ntee: /etc/t: Permission denied", want: []Block{write("/etc/t", "/etc")}},
		{name: "bash redirect", output: "bash: line 1: /etc/r: Permission denied", want: []Block{write("/etc/r", "/etc")}},
		{name: "sed -i's temporary file", output: "sed: couldn't open temporary file /tmp/outside/sedHQLCIa: Permission denied",
			want: []Block{write("/tmp/outside/sedHQLCIa", "/tmp/outside")}},
		{name: "python", output: "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nPermissionError: [Errno 13] Permission denied: '/etc/p'",
			want: []Block{write("/etc/p", "/etc")}},
		{name: "perl", output: "cannot open /etc/pl: Permission denied at -e line 1.", want: []Block{write("/etc/pl", "/etc")}},
		{name: "git", output: "fatal: cannot mkdir /tmp/outside/repo: Permission denied", want: []Block{write("/tmp/outside/repo", "/tmp/outside")}},
		{name: "node", output: "Error: EACCES: permission denied, open '/etc/n'\n  errno: -13,", want: []Block{write("/etc/n", "/etc")}},
		{name: "an existing file's content needs only the file",
			output: "truncate: cannot open '/tmp/outside/f' for writing: Permission denied", want: []Block{write("/tmp/outside/f", "/tmp/outside/f")}},
		{name: "go", output: "open /etc/hostname: permission denied", want: []Block{write("/etc/hostname", "/etc/hostname")}},
		{name: "relative, leaving the workspace", output: "touch: cannot touch '../etc/x': Permission denied", want: []Block{write("/etc/x", "/etc")}},
		{name: "deep and missing asks for the nearest directory", output: "mkdir: cannot create directory '/tmp/outside/a/b': Permission denied",
			want: []Block{write("/tmp/outside/a/b", "/tmp/outside")}},
		{name: "read-only: the workspace", readOnly: true, output: "bash: line 1: x: Permission denied", want: []Block{write("/ws/x", "/ws/x")}},
		{name: "read-only: a new file in the workspace", readOnly: true, output: "touch: cannot touch 'y': Permission denied", want: []Block{write("/ws/y", "/ws")}},
		{name: "repeated lines name a path once", output: "tee: /etc/t: Permission denied\ntee: /etc/t: Permission denied",
			want: []Block{write("/etc/t", "/etc")}},
		{name: "at most five", output: "touch: cannot touch '/etc/1': Permission denied\ntouch: cannot touch '/etc/2': Permission denied\n" +
			"touch: cannot touch '/etc/3': Permission denied\ntouch: cannot touch '/etc/4': Permission denied\n" +
			"touch: cannot touch '/etc/5': Permission denied\ntouch: cannot touch '/etc/6': Permission denied",
			want: []Block{write("/etc/1", "/etc"), write("/etc/2", "/etc"), write("/etc/3", "/etc"), write("/etc/4", "/etc"), write("/etc/5", "/etc")}},

		// Not the sandbox's doing.
		{name: "the workspace is writable", output: "touch: cannot touch 'x': Permission denied"},
		{name: "TMPDIR is writable", output: "touch: cannot touch '/tmp/t/x': Permission denied"},
		{name: "a file steer cannot write either", output: "cat: /etc/shadow: Permission denied"},
		{name: "a read-only file system", output: "touch: cannot touch '/ro/x': Read-only file system"},
		{name: "no permission error", output: "ls: cannot access '/etc/steer-test': No such file or directory"},
		{name: "no path", output: "sudo: a password is required\nOperation not permitted"},
		{name: "bash's /dev/tcp is no file", output: "bash: line 1: /dev/tcp/127.0.0.1/80: Permission denied"},
		{name: "the network while it is allowed", output: "curl: (6) Could not resolve host: example.com"},

		// The network, denied by a namespace or by Landlock.
		{name: "curl", netDeny: true, output: "curl: (7) Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server", want: []Block{network}},
		{name: "curl without DNS", netDeny: true, output: "curl: (6) Could not resolve host: example.com", want: []Block{network}},
		{name: "bash /dev/tcp refused", netDeny: true, output: "bash: connect: Connection refused\nbash: line 1: /dev/tcp/127.0.0.1/80: Connection refused",
			want: []Block{network}},
		{name: "bash /dev/tcp under Landlock", netDeny: true, output: "bash: connect: Permission denied\nbash: line 1: /dev/tcp/127.0.0.1/18777: Permission denied",
			want: []Block{network}},
		{name: "python under Landlock", netDeny: true, output: "urllib.error.URLError: <urlopen error [Errno 13] Permission denied>", want: []Block{network}},
		{name: "go under Landlock", netDeny: true, output: "dial tcp 127.0.0.1:18777: connect: permission denied", want: []Block{network}},
		{name: "node under Landlock", netDeny: true, output: "connect EACCES 127.0.0.1:18777 - Local (0.0.0.0:0)", want: []Block{network}},
		{name: "git", netDeny: true, output: "fatal: unable to access 'https://example.com/x/': Could not resolve host: example.com", want: []Block{network}},
		{name: "a write and the network", netDeny: true,
			output: "touch: cannot touch '/etc/x': Permission denied\ncurl: (6) Could not resolve host: example.com",
			want:   []Block{write("/etc/x", "/etc"), network}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := judge{cwd: "/ws", writable: []string{"/ws", "/tmp/t", "/dev/null"}, confined: true, network: tt.netDeny,
				locate: fs.locate, canWrite: fs.canWrite}
			if tt.readOnly {
				j.writable = j.writable[1:]
			}
			if got := j.blocked(tt.output); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("blocked(%q) = %+v, want %+v", tt.output, got, tt.want)
			}
		})
	}
}

func TestBlockedWritesOnlyWhenConfined(t *testing.T) {
	fs := fakeFS{exists: set("/", "/etc")}
	j := judge{cwd: "/ws", network: true, locate: fs.locate, canWrite: fs.canWrite}
	got := j.blocked("touch: cannot touch '/etc/x': Permission denied\ncurl: (7) Failed to connect to 10.0.0.1 port 80")
	if !reflect.DeepEqual(got, []Block{{}}) {
		t.Errorf("blocked = %+v, want the network alone: writes were not confined", got)
	}
}

func TestBlockString(t *testing.T) {
	for b, want := range map[Block]string{
		{Path: "/etc/x", Grant: "/etc"}: "blocked by the sandbox: write to /etc/x",
		{}:                              "blocked by the sandbox: network",
	} {
		if got := b.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", b, got, want)
		}
	}
}

func set(paths ...string) map[string]bool {
	m := map[string]bool{}
	for _, p := range paths {
		m[p] = true
	}
	return m
}
