package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
)

// outputFiles lists the files in dir.
func outputFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, filepath.Join(dir, e.Name()))
	}
	return names
}

func TestBashFullOutputFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "tool-output")
	bash := Bash(t.TempDir(), WithOutputDir(dir))

	short := execute(t, bash, map[string]any{"command": "echo short"})
	if text(short) != "short" || len(outputFiles(t, dir)) != 0 {
		t.Errorf("short output %q left files %v; want none", text(short), outputFiles(t, dir))
	}

	r := execute(t, bash, map[string]any{"command": "seq 1 200000; echo LAST"})
	files := outputFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("files %v, want one", files)
	}
	got := text(r)
	if !strings.Contains(got, "Full output: "+files[0]) || !strings.HasSuffix(got, "\nLAST") || !r.Details.(agent.CommandDetails).Truncated {
		t.Errorf("result does not name %s or lacks the tail: …%q", files[0], got[max(0, len(got)-300):])
	}
	var want strings.Builder
	for i := 1; i <= 200000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	want.WriteString("LAST\n")
	data, err := os.ReadFile(files[0])
	if err != nil || string(data) != want.String() {
		t.Errorf("the file holds %d bytes (%v), want the %d of the output", len(data), err, want.Len())
	}
	info, err := os.Stat(files[0])
	if err != nil || info.Mode().Perm() != outputFilePerm {
		t.Errorf("file mode %v, want %v", info.Mode().Perm(), os.FileMode(outputFilePerm))
	}
	if !outputFilePattern.MatchString(filepath.Base(files[0])) {
		t.Errorf("file name %s does not match the pattern pruning uses", files[0])
	}
}

// TestBashHugeOutput prints ~97 MB: memory stays flat, the result is
// bounded with head and tail, and the file holds everything.
func TestBashHugeOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 97 MB")
	}
	dir := t.TempDir()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	r := execute(t, Bash(t.TempDir(), WithOutputDir(dir)), map[string]any{"command": "seq 1 12000000; echo LAST"})
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 32<<20 {
		t.Errorf("the command's output cost %s of allocations, want it bounded", humanize.Bytes(int64(allocated)))
	}
	got := text(r)
	files := outputFiles(t, dir)
	if len(got) >= 200*1024 || !strings.HasPrefix(got, "1\n2\n3\n") || !strings.HasSuffix(got, "11999999\n12000000\nLAST") ||
		len(files) != 1 || !strings.Contains(got, files[0]) {
		t.Errorf("result of %d bytes, files %v: %.60q … %q", len(got), files, got, got[max(0, len(got)-400):])
	}
	if info, err := os.Stat(files[0]); err != nil || info.Size() != 96888902 {
		t.Errorf("the full output file has %d bytes, want 96888902", info.Size())
	}
	if peak := peakRSS(t); peak > 150<<20 {
		t.Errorf("peak RSS %s, want under 150 MB", humanize.Bytes(peak))
	}
}

// peakRSS reads this process's peak resident set size from /proc.
func peakRSS(t *testing.T) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	t.Skip("no VmHWM")
	return 0
}

// TestBashOutputKeepsNoSecrets: what the tool writes to disk and returns
// holds no key from the environment, neither one named like a secret nor
// one an auth profile names.
func TestBashOutputKeepsNoSecrets(t *testing.T) {
	const (
		named   = "sk-test-FAKEKEY-0123456789abcdef"
		profile = "profile-FAKESECRET-fedcba9876543210"
	)
	t.Setenv("STEER_FAKE_API_KEY", named)
	t.Setenv("STEER_PROFILE_CREDENTIAL", profile)
	dir := t.TempDir()
	bash := Bash(t.TempDir(), WithOutputDir(dir), WithHiddenEnv("STEER_PROFILE_CREDENTIAL"))
	r := execute(t, bash, map[string]any{"command": `env; echo "named=[$STEER_FAKE_API_KEY] profile=[$STEER_PROFILE_CREDENTIAL]"; seq 1 100000`})

	files := outputFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("files %v, want the full output kept", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil || !bytes.Contains(data, []byte("named=[] profile=[]")) || !bytes.Contains(data, []byte("PATH=")) {
		t.Fatalf("the output file does not hold the command's output (%v)", err)
	}
	for _, secret := range []string{named, profile} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s holds the secret %s", files[0], secret)
		}
		if strings.Contains(text(r), secret) {
			t.Errorf("the result holds the secret %s", secret)
		}
	}
}

func TestPruneOutputs(t *testing.T) {
	dir := t.TempDir()
	names := []string{
		"bash-20260101-100000-a.log", "bash-20260101-100001-b.log", "bash-20260102-090000-c.log",
		"bash-20260103-000000-d.log", "notes.txt",
	}
	for _, n := range names {
		writeFile(t, dir, n, "x")
	}
	pruneOutputs(dir, 2)
	var left []string
	for _, f := range outputFiles(t, dir) {
		left = append(left, filepath.Base(f))
	}
	want := "bash-20260102-090000-c.log bash-20260103-000000-d.log notes.txt"
	if strings.Join(left, " ") != want {
		t.Errorf("left %v, want %s", left, want)
	}
}

func TestOutputFileName(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 5, 4, 3, 2, 1, 0, time.UTC)
	for id, want := range map[string]string{
		"toolu_01ABC": "bash-20260504-030201-toolu_01ABC.log",
		"call/../x y": "bash-20260504-030201-callxy.log",
		"":            "bash-20260504-030201-call.log",
		"äöü":         "bash-20260504-030201-call.log",
		"call_1-2_3":  "bash-20260504-030201-call_1-2_3.log",
	} {
		c := newCapture(dir, id, at)
		if got := filepath.Base(c.file.Name()); got != want {
			t.Errorf("call id %q: file %s, want %s", id, got, want)
		}
		c.finish()
	}
}
