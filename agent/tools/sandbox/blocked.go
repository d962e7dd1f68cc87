package sandbox

import (
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Block is one thing the sandbox stopped a command from doing, worked out
// from the command's output.
type Block struct {
	// Path is the path the command could not write, absolute; "" when the
	// command could not reach the network.
	Path string
	// Grant is the path to make writable so that the command can do it:
	// Path itself when it exists and only its content was to change, else
	// the directory that holds (or would hold) it, or the nearest one that
	// exists. It is "" for the network, which no grant opens.
	Grant string
}

// String is the line the bash tool adds to the result:
// "blocked by the sandbox: write to /etc/x" or "blocked by the sandbox: network".
func (b Block) String() string {
	if b.Path == "" {
		return "blocked by the sandbox: network"
	}
	return "blocked by the sandbox: write to " + b.Path
}

// maxBlocks bounds how many blocks one result names.
const maxBlocks = 5

// The lower-cased messages of EACCES, EPERM and EROFS as C programs
// (strerror), Go, Python and Node print them.
var deniedMarkers = []string{"permission denied", "operation not permitted", "read-only file system", "eacces", "eperm", "erofs"}

// networkMarkers are what clients print when they cannot reach a host, in
// lower case: no route out of a network namespace, no name server, nothing
// listening on its own loopback, or Landlock denying connect.
var networkMarkers = []string{
	"network is unreachable", "no route to host", "connection refused", "couldn't connect to server",
	"could not resolve host", "temporary failure in name resolution", "name or service not known",
	"failed to establish a new connection", "failed to connect", "unable to resolve host", "urlopen error",
	"enetunreach", "econnrefused", "eai_again", "getaddrinfo",
}

// bashNetPaths are bash's pseudo-files for connections, which are no files.
var bashNetPaths = []string{"/dev/tcp/", "/dev/udp/"}

// Blocked lists what the sandbox stopped, judged from the output of the
// command after it failed: a line reporting a permission error on a path
// the command could not write but steer itself could (so the sandbox, not
// the file's permissions, stopped it), and, under Deny, a line reporting
// that a host could not be reached. It reads the file system to resolve
// paths and check permissions. It is nil when nothing points at the
// sandbox.
func (c *Cmd) Blocked(output string) []Block {
	j := judge{
		cwd:      c.scope.Workspace,
		writable: c.writable,
		confined: c.setup.ConfineWrites,
		network:  c.policy.Network == Deny,
		locate:   locate,
		canWrite: func(p string) bool { return unix.Access(p, unix.W_OK) == nil },
	}
	return j.blocked(output)
}

// judge decides which lines of an output the sandbox caused. Its funcs do
// the file system's part, so that blocked is a function of its inputs.
type judge struct {
	cwd      string   // where relative paths start
	writable []string // what the command may write, resolved
	confined bool     // whether writes were confined at all
	network  bool     // whether the network was denied
	// locate resolves p's links as far as it exists and says whether it
	// exists, and which existing directory holds it or its nearest parent.
	locate func(p string) (resolved string, exists bool, dir string)
	// canWrite reports whether steer, unconfined, may write p (an existing
	// path).
	canWrite func(p string) bool
}

func (j judge) blocked(output string) []Block {
	var blocks []Block
	seen := map[Block]bool{}
	add := func(b Block) {
		if !seen[b] && len(blocks) < maxBlocks {
			seen[b] = true
			blocks = append(blocks, b)
		}
	}
	for line := range strings.Lines(output) {
		line = strings.TrimSpace(line)
		lower := strings.ToLower(line)
		if j.network && isNetworkLine(lower) {
			add(Block{})
			continue
		}
		if j.confined && containsAny(lower, deniedMarkers) {
			if b, ok := j.writeBlock(line, lower); ok {
				add(b)
			}
		}
	}
	return blocks
}

// isNetworkLine reports whether a lower-cased line says a host could not be
// reached, or that connecting or binding was denied.
func isNetworkLine(lower string) bool {
	if containsAny(lower, networkMarkers) || containsAny(lower, bashNetPaths) {
		return true
	}
	return containsAny(lower, deniedMarkers) && (strings.Contains(lower, "connect") || strings.Contains(lower, "bind"))
}

// writeBlock finds, on a line reporting a permission error, the first path
// the sandbox kept the command from writing.
func (j judge) writeBlock(line, lower string) (Block, bool) {
	dirOp := containsAny(lower, dirOperations)
	for _, cand := range pathCandidates(line) {
		if containsAny(cand, bashNetPaths) {
			continue
		}
		p := cand
		if !filepath.IsAbs(p) {
			p = filepath.Join(j.cwd, p)
		}
		p = filepath.Clean(p)
		resolved, exists, dir := j.locate(p)
		if j.isWritable(resolved) {
			continue // the sandbox allowed it: something else refused
		}
		grant := resolved
		if !exists || dirOp {
			grant = dir
		}
		if grant == "" || !j.canWrite(grant) {
			continue // steer could not write it either
		}
		return Block{Path: p, Grant: grant}, true
	}
	return Block{}, false
}

// dirOperations mark a line about an entry of a directory (making,
// removing, moving, linking one, or a temporary file beside it), which
// needs the directory writable rather than the file.
var dirOperations = []string{"remove", "move", "rename", "unlink", "link", "mkdir", "directory", "temporary file"}

func (j judge) isWritable(p string) bool {
	for _, w := range j.writable {
		if p == w || strings.HasPrefix(p, strings.TrimSuffix(w, "/")+"/") {
			return true
		}
	}
	return false
}

// pathCandidates are the strings of line that may name a file, in order:
// quoted spans, words that look like paths, and the word just before a
// ": Permission denied"-like ending (bash's "line 1: x: Permission denied").
func pathCandidates(line string) []string {
	var out []string
	for _, q := range quotePairs {
		rest := line
		for {
			i := strings.Index(rest, q[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(q[0]):]
			k := strings.Index(rest, q[1])
			if k < 0 {
				break
			}
			if s := rest[:k]; s != "" && !strings.ContainsAny(s, "\n") {
				out = append(out, s)
			}
			rest = rest[k+len(q[1]):]
		}
	}
	for _, w := range strings.Fields(line) {
		w = strings.Trim(w, "'\"‘’“”`()[]{}<>,;")
		w = strings.TrimRight(w, ":.")
		if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") {
			out = append(out, w)
		}
	}
	lower := strings.ToLower(line)
	for _, m := range deniedMarkers {
		if i := strings.Index(lower, ": "+m); i > 0 {
			seg := line[:i]
			if k := strings.LastIndex(seg, ": "); k >= 0 {
				seg = seg[k+2:]
			}
			if seg != "" && !strings.ContainsAny(seg, " \t") {
				out = append(out, seg)
			}
		}
	}
	return out
}

// quotePairs are the quotes messages put around file names: C's and
// Python's, GNU's in a UTF-8 locale, and the old GNU style.
var quotePairs = [][2]string{{"'", "'"}, {`"`, `"`}, {"‘", "’"}, {"“", "”"}, {"`", "'"}}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// locate resolves p as far as it exists: the resolved path (with the rest
// that does not exist appended), whether all of it exists, and the
// resolved directory that holds it, or the nearest existing ancestor when
// that directory does not exist either.
func locate(p string) (resolved string, exists bool, dir string) {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, true, filepath.Dir(r)
	}
	rest := filepath.Base(p)
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest), false, r
		}
		if d == "/" || d == "." {
			return p, false, ""
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}
