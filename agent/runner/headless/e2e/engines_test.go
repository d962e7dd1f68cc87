package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// Context engines (issue 12) through the binary: a broken external engine is
// quarantined, the run answers on legacy, and `steer inspect engines` lists
// and clears the quarantine from the shared database.

// engineAnswerWithin bounds a run whose engine fails ("within seconds"):
// the hang's 2 s timeout and start-up, with room for a loaded machine.
const engineAnswerWithin = 8 * time.Second

// enginesReport is `steer inspect engines --json`.
type enginesReport struct {
	Active   *string `json:"active"`
	Selected string  `json:"selected"`
	Engines  []struct {
		Name        string `json:"name"`
		Quarantined bool   `json:"quarantined"`
	} `json:"engines"`
	Quarantines []struct {
		Engine, Method, Reason, Error string
		Since, Last                   *time.Time
		Count                         int
	} `json:"quarantines"`
}

// engineConfig selects the external engine name, run by command.
func engineConfig(t *testing.T, name string, command []string, timeoutSeconds int) string {
	t.Helper()
	engine := map[string]any{"command": command}
	if timeoutSeconds > 0 {
		engine["timeoutSeconds"] = timeoutSeconds
	}
	cfg, err := json.Marshal(map[string]any{
		"agent":          map[string]any{"contextEngine": name},
		"contextEngines": map[string]any{name: engine},
	})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "config.json", string(cfg))
}

// inspectEngines runs `steer inspect engines --json` in a new process; raw
// is its output, for messages.
func inspectEngines(t *testing.T, s *sandbox, cfg string) (report enginesReport, raw string) {
	t.Helper()
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "engines", "--json")
	if code != headless.ExitOK {
		t.Fatalf("inspect engines: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("inspect engines --json: %v:\n%s", err, stdout)
	}
	return report, stdout
}

// TestBrokenEnginesAreQuarantined: an engine that crashes, hangs past its
// timeoutSeconds or answers garbage does not stop `steer run hello`: it
// answers on legacy within seconds with a quarantine event; a new process's
// `steer inspect engines --json` lists the quarantine (engine, method,
// reason), and `--clear NAME` lifts it.
func TestBrokenEnginesAreQuarantined(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		command      []string
		timeout      int
	}{
		{"crashes", "crash", []string{"sh", "-c", "exit 3"}, 0},
		{"hangs", "timeout", []string{"sleep", "600"}, 2},
		{"babbles", "invalid_output", []string{"sh", "-c", "echo garbage; cat"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			cfg := engineConfig(t, tc.name, tc.command, tc.timeout)
			start := time.Now()
			code, stdout, stderr := s.run(nil, "--config", cfg, "--pace", "0", "run", "--json", "hello")
			took := time.Since(start)
			if code != headless.ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if took > engineAnswerWithin {
				t.Errorf("the run took %v", took)
			}
			lines := jsonLines(t, stdout)
			if answer := messageText(finalAnswer(t, lines)); !strings.HasPrefix(answer, "You said: hello") {
				t.Errorf("the answer: %q", answer)
			}
			q := ofType(lines, "quarantine")
			if len(q) == 0 || q[0]["engine"] != tc.name || !engineMethods[fmt.Sprint(q[0]["method"])] || q[0]["reason"] != tc.reason {
				t.Fatalf("quarantine events %v, want one for %s with reason %s", q, tc.name, tc.reason)
			}

			report, _ := inspectEngines(t, s, cfg)
			if report.Active == nil || *report.Active != "legacy" || report.Selected != tc.name {
				t.Errorf("active %v, selected %q: want legacy standing in for %s", report.Active, report.Selected, tc.name)
			}
			if len(report.Quarantines) != 1 {
				t.Fatalf("quarantines %+v", report.Quarantines)
			}
			got := report.Quarantines[0]
			if got.Engine != tc.name || !engineMethods[got.Method] || got.Reason != tc.reason || got.Error == "" ||
				got.Since == nil || got.Last == nil || got.Count < 1 {
				t.Errorf("quarantine %+v, want %s's failure (%s) with its method, error, times and count", got, tc.name, tc.reason)
			}
			if !engineListed(report, tc.name, true) {
				t.Errorf("engines %+v: %s not listed as quarantined", report.Engines, tc.name)
			}

			code, _, stderr = s.run(nil, "--config", cfg, "inspect", "engines", "--clear", tc.name)
			if code != headless.ExitOK {
				t.Fatalf("--clear: exit %d: %s", code, stderr)
			}
			report, raw := inspectEngines(t, s, cfg)
			// An empty array, not null: a nil slice is what null decodes to.
			if report.Quarantines == nil || len(report.Quarantines) != 0 {
				t.Errorf("after --clear: %s", raw)
			}
			if report.Active == nil || *report.Active != tc.name || !engineListed(report, tc.name, false) {
				t.Errorf("after --clear the engine is not active again: %s", raw)
			}
		})
	}
}

// engineMethods are the methods of the engine protocol (context-engines.md).
var engineMethods = map[string]bool{"info": true, "bootstrap": true, "ingest": true, "assemble": true, "compact": true, "afterTurn": true}

// TestQuarantineEventMatchesTheRecord: every failure the guard records
// reaches the run's --json events, the one the database keeps (the first)
// included, so that --json and `steer inspect engines` agree on which call
// broke the engine.
func TestQuarantineEventMatchesTheRecord(t *testing.T) {
	for i := 0; i < 3; i++ {
		s := newSandbox(t)
		cfg := engineConfig(t, "babbles", []string{"sh", "-c", "echo garbage; cat"}, 0)
		code, stdout, stderr := s.run(nil, "--config", cfg, "--pace", "0", "run", "--json", "hello")
		if code != headless.ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		q := ofType(jsonLines(t, stdout), "quarantine")
		report, raw := inspectEngines(t, s, cfg)
		found := false
		for _, ev := range q {
			found = found || (len(report.Quarantines) == 1 && ev["method"] == report.Quarantines[0].Method)
		}
		if !found {
			t.Fatalf("run %d: events %v, stored %s", i+1, q, raw)
		}
	}
}

func engineListed(r enginesReport, name string, quarantined bool) bool {
	for _, e := range r.Engines {
		if e.Name == name {
			return e.Quarantined == quarantined
		}
	}
	return false
}

// TestInspectEnginesWithoutEngines: with no engine configured, legacy is
// active and the arrays are empty, never null.
func TestInspectEnginesWithoutEngines(t *testing.T) {
	s := newSandbox(t)
	code, stdout, stderr := s.run(nil, "inspect", "engines", "--json")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var report enginesReport
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if report.Active == nil || *report.Active != "legacy" || len(report.Engines) != 1 || report.Quarantines == nil || len(report.Quarantines) != 0 {
		t.Errorf("with no engine configured: %s", stdout)
	}
}

// TestInspectStartsNoEngine: `steer inspect engines` reads the database and
// never starts the configured engine.
func TestInspectStartsNoEngine(t *testing.T) {
	s := newSandbox(t)
	started := filepath.Join(t.TempDir(), "started")
	cfg := engineConfig(t, "watched", []string{"sh", "-c", "touch " + shQuote(started) + "; cat"}, 0)
	report, raw := inspectEngines(t, s, cfg)
	if report.Active == nil || *report.Active != "watched" || !engineListed(report, "watched", false) {
		t.Errorf("inspect engines: %s", raw)
	}
	if fileExists(started) {
		t.Fatalf("inspect engines started the engine")
	}
}

// TestAHungEngineDiesWithSteer: the engine's process does not outlive steer,
// and what it writes on stderr goes to the log, never raw to steer's
// output: only quoted, in the quarantine that says why it was dropped.
// The run's calls that hang together (ingest and assemble) share the one
// process: it is started once, and every quarantine quotes it.
func TestAHungEngineDiesWithSteer(t *testing.T) {
	s := newSandbox(t)
	pidFile := filepath.Join(t.TempDir(), "engine.pids")
	const mark = "engine-stderr-mark-5150"
	// Each process appends its pid (one short O_APPEND write): a process
	// killed before it writes adds nothing, never half a line.
	cfg := engineConfig(t, "hung", []string{"sh", "-c", "echo $$ >> " + shQuote(pidFile) + "; echo " + mark + " >&2; exec sleep 600"}, 2)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--pace", "0", "run", "--json", "hello")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	q := ofType(jsonLines(t, stdout), "quarantine")
	if len(q) == 0 {
		t.Fatalf("no quarantine events:\n%s", stdout)
	}
	// The first failure recorded (count 1 in a fresh database) is the
	// timeout; a call that failed with it may add one (its process reset),
	// and every one quotes the one process's stderr.
	var first []map[string]any
	for _, ev := range q {
		if ev["count"] == float64(1) {
			first = append(first, ev)
		}
		if ev["stderr"] != mark {
			t.Errorf("quarantine %v quotes stderr %q, want %q", ev, ev["stderr"], mark)
		}
	}
	if len(first) != 1 || first[0]["reason"] != "timeout" {
		t.Errorf("quarantine events %v: want the first recorded a timeout", q)
	}
	// A quarantine recorded after the run's last request is a notice, and
	// its ⚠ line on steer's stderr quotes the mark too.
	if strings.Count(stderr, mark) != strings.Count(stderr, "its stderr ended: "+mark) ||
		strings.Count(stdout, mark) != strings.Count(stdout, `"stderr":"`+mark+`"`) {
		t.Errorf("the engine's stderr reached steer's output outside the quarantine's quote:\n%s\n%s", stdout, stderr)
	}
	// The file is complete: steer has killed every engine process it
	// started before it exits.
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the engine never started: %v", err)
	}
	pids := strings.Fields(string(raw))
	if len(pids) != 1 {
		t.Fatalf("the engine was started %d times (pids %q), want once", len(pids), pids)
	}
	pid, err := strconv.Atoi(pids[0])
	if err != nil {
		t.Fatal(err)
	}
	pollUntil(t, 5*time.Second, "the engine process to end", func() bool { return !processAlive(pid) })
	pollUntil(t, 5*time.Second, "the engine's stderr in the log", func() bool {
		log, _ := os.ReadFile(filepath.Join(s.stateDir, "logs", "steer.log"))
		return strings.Contains(string(log), mark)
	})
}

// processAlive reports whether pid runs (a zombie waiting for a reaper has
// ended).
func processAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// pollUntil polls cond until it holds, failing after timeout.
func pollUntil(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTheExampleEngineWorks: the shipped trim_thinking.py, configured as
// context-engines.md says, serves two runs of a session without a
// quarantine, and drops the earlier turn's thinking (it says so on stderr,
// which reaches the log).
func TestTheExampleEngineWorks(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	script, err := os.ReadFile("../../../../assets/examples/trim_thinking.py")
	if err != nil {
		t.Fatal(err)
	}
	// The README's relative path, read from the config file's directory:
	// the workspace has no assets/ of its own.
	confDir := t.TempDir()
	mkdir(t, confDir, "assets", "examples")
	if err := os.WriteFile(filepath.Join(confDir, "assets", "examples", "trim_thinking.py"), script, 0o600); err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t)
	cfg := filepath.Join(confDir, "config.json")
	if err := os.WriteFile(cfg, []byte(`{"agent": {"contextEngine": "trim-thinking", "thinking": "medium"},
		"contextEngines": {"trim-thinking": {"command": ["python3", "assets/examples/trim_thinking.py"], "timeoutSeconds": 10}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{"run", "--json", "list files"}, {"--continue", "run", "--json", "hello again"}} {
		code, stdout, stderr := s.run(nil, append([]string{"--config", cfg, "--pace", "0"}, args...)...)
		if code != headless.ExitOK {
			t.Fatalf("run %d: exit %d: %s", i+1, code, stderr)
		}
		lines := jsonLines(t, stdout)
		if q := ofType(lines, "quarantine"); len(q) > 0 {
			t.Fatalf("run %d: the example engine was quarantined: %v", i+1, q)
		}
		if last := finalAnswer(t, lines); last["stopReason"] != "stop" {
			t.Fatalf("run %d: the last message %v", i+1, last)
		}
	}
	report, raw := inspectEngines(t, s, cfg)
	if report.Active == nil || *report.Active != "trim-thinking" || len(report.Quarantines) != 0 {
		t.Errorf("inspect engines: %s", raw)
	}
	log, err := os.ReadFile(filepath.Join(s.stateDir, "logs", "steer.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "dropped the thinking of") {
		t.Errorf("the engine never trimmed the earlier turn's thinking; log:\n%s", log)
	}
}

// TestACrashedEngineSaysWhyOnce: an engine that writes why it fails on
// stderr and exits makes `steer run` print one ⚠ line, however many calls
// were in flight when it died, and that line (and the stored record) ends
// with the last lines the engine wrote, sanitised; the engine ran in the
// config file's directory, where its relative script path resolves.
func TestACrashedEngineSaysWhyOnce(t *testing.T) {
	confDir := t.TempDir()
	script := "echo first line >&2\nprintf 'in \\033[31m%s\\033[0m\\n' \"$(pwd)\" >&2\necho 'Traceback: no such file notes.db' >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(confDir, "engine.sh"), []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(confDir, "config.json")
	if err := os.WriteFile(cfg, []byte(`{"agent": {"contextEngine": "crashy"},
		"contextEngines": {"crashy": {"command": ["sh", "engine.sh"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ { // the calls that fail together vary from run to run
		s := newSandbox(t)
		code, stdout, stderr := s.run(nil, "--config", cfg, "--pace", "0", "run", "hello")
		if code != headless.ExitOK || !strings.HasPrefix(stdout, "You said: hello") {
			t.Fatalf("exit %d: %s%s", code, stdout, stderr)
		}
		want := "first line | in " + confDir + " | Traceback: no such file notes.db"
		var warnings []string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(l, "⚠") {
				warnings = append(warnings, l)
			}
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "context engine crashy quarantined") ||
			!strings.HasSuffix(warnings[0], "its stderr ended: "+want) {
			t.Fatalf("run %d: want one ⚠ line quoting %q, got %q", i+1, want, warnings)
		}
		report, raw := inspectEngines(t, s, cfg)
		if len(report.Quarantines) != 1 || !strings.HasSuffix(report.Quarantines[0].Error, "; stderr: "+want) {
			t.Errorf("run %d: the stored record does not quote the stderr: %s", i+1, raw)
		}
	}
}
