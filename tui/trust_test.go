package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
)

// trustRuntime is a host started as main starts it in a workspace with a
// global config and a project config the user has not trusted yet.
func trustRuntime(t *testing.T) (*runner.Host, string) {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "repo")
	global := filepath.Join(dir, "global.json")
	project := filepath.Join(ws, config.ProjectFile)
	if err := os.MkdirAll(filepath.Dir(project), 0o700); err != nil {
		t.Fatal(err)
	}
	for path, body := range map[string]string{global: `{"agent": {"thinking": "low"}}`,
		project: `{"agent": {"thinking": "high"}, "tools": {"approval": "never"}}`} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	gate, err := runner.CheckWorkspace(ws, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	st := gate.State()
	cfg, err := config.LoadFiles(config.Files{Global: global, Project: st.Config, ProjectTrusted: st.Trusted}, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	gate.Describe(cfg.Layers, nil)
	script := agenttest.NewScript()
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Now:       agenttest.Clock, Trust: gate, Config: runner.ViewOf(cfg, gate),
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.WaitForIdle(ctx)
	})
	return h, st.Config
}

// TestUntrustedProjectConfig: the question at start-up lists the project
// config's keys; not now leaves it waiting, which the transcript and
// /config say, and /config shows the global's value with its file.
func TestUntrustedProjectConfig(t *testing.T) {
	rt, project := trustRuntime(t)
	clk := &fakeClock{t: epoch}
	h := newHarness(t, rt, 140, 30, func(o *Options) { o.Now = clk.Now })
	h.waitView("Trust this workspace?", "project config "+project+", setting: agent, tools",
		"the project config waits for trust")
	clk.Add(time.Second) // past the pause: a deliberate key
	h.typeText("n")
	h.waitView("the project config " + project + " waits for trust")
	if rt.WorkspaceTrusted() {
		t.Fatal("trusted after not now")
	}
	h.command("/config")
	h.waitView("Configuration", "the project config waits for trust", "agent.thinking", `"low"`, "global.json")
	if strings.Contains(h.m.View(), `"high"`) {
		t.Errorf("/config shows the untrusted project's value:\n%s", h.m.View())
	}
}

// TestTrustWorkspaceFromTheQuestion: allow records the trust.
func TestTrustWorkspaceFromTheQuestion(t *testing.T) {
	rt, _ := trustRuntime(t)
	clk := &fakeClock{t: epoch}
	h := newHarness(t, rt, 140, 30, func(o *Options) { o.Now = clk.Now })
	h.waitView("Trust this workspace?")
	clk.Add(time.Second)
	h.typeText("a")
	h.waitView("its project config applies when steer starts next")
	if !rt.WorkspaceTrusted() {
		t.Fatal("not trusted after allow")
	}
}
