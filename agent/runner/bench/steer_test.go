package bench

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// EnvBinary names a binary to measure instead of building one (an older
// build, to compare).
const EnvBinary = "STEER_BENCH_BIN"

// buildDir holds the binaries once a benchmark has built them.
var (
	buildDir     string
	makeBuildDir = sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "steer-bench-")
		buildDir = dir
		return dir, err
	})
)

// steerBinary builds steer once for the package's benchmarks, or takes the
// binary EnvBinary names, and measures a fresh copy of it (see copyBinary).
var steerBinary = sync.OnceValues(func() (string, error) {
	return build("github.com/steer-tui/steer", "steer", os.Getenv(EnvBinary))
})

// floorBinary builds testdata/floor: the least a program built from steer's
// required libraries can do to answer (see its doc comment).
var floorBinary = sync.OnceValues(func() (string, error) {
	return build("./testdata/floor", "floor", "")
})

// build builds pkg, unless src names a binary already built, and returns a
// fresh copy of it named name.
func build(pkg, name, src string) (string, error) {
	dir, err := makeBuildDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, name)
	if src == "" {
		src = bin + ".built"
		out, err := exec.Command("go", "build", "-o", src, pkg).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("building %s: %v\n%s", name, err, out)
		}
	}
	return bin, copyBinary(src, bin)
}

// copyBinary writes a copy of the binary src to dst. A process's peak RSS
// is mostly the binary's pages the kernel maps around each page fault, and
// how many it maps depends on how the file sits in the page cache: ext4
// caches a file in folios as large as the writes that made it, and the
// kernel maps a large folio whole (Linux 6.18 here). For a one-chunk `steer
// run`, the linker's output measured right after a build peaks at 43.4 MB,
// a copy at 39.3 MB, and a copy written 2 MB at a time at 56.3 MB: the same
// bytes. Copying puts every binary compared on the same footing.
func copyBinary(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// sandbox is a state directory, config home and workspace for steer, with a
// config whose provider "local" is the OpenAI-compatible server at baseURL.
type sandbox struct {
	bin, dir, config string
	env              []string
}

func newSandbox(b *testing.B, baseURL string) *sandbox {
	b.Helper()
	bin, err := steerBinary()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	config := filepath.Join(dir, "config.json")
	cfg := `{"providers":{"local":{"api":"openai-chat","baseURL":"` + baseURL + `/v1","models":[{"id":"m"}]}}}`
	if err := os.WriteFile(config, []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "STEER_STATE_DIR="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "home"),
		"ANTHROPIC_API_KEY=", "OPENAI_API_KEY=", "OPENROUTER_API_KEY=")
	return &sandbox{bin: bin, dir: dir, config: config, env: env}
}

// steer is a command running steer with args in the sandbox.
func (s *sandbox) steer(args ...string) *exec.Cmd {
	cmd := exec.Command(s.bin, args...)
	cmd.Dir, cmd.Env = s.dir, s.env
	return cmd
}

// floor is the floor program answering from the server at baseURL, saving
// in the sandbox.
func (s *sandbox) floor(b *testing.B, baseURL string) *exec.Cmd {
	b.Helper()
	bin, err := floorBinary()
	if err != nil {
		b.Fatal(err)
	}
	return exec.Command(bin, baseURL+"/v1", s.dir)
}

// ask is `steer run` asking the local model.
func (s *sandbox) ask() *exec.Cmd {
	return s.steer("--config", s.config, "run", "--model", "local/m", "hi")
}
