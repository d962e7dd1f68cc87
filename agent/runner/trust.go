package runner

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/trust"
)

// Workspace trust: what a workspace brings that runs code or changes
// steer's behaviour — its project config (.steer/config.json, here or in
// an ancestor; it can carry hooks, MCP servers, permissions) with the
// scripts its hooks run, its .mcp.json servers, and its skills (which tell
// the model to run their scripts) — takes effect only once the user trusts
// the workspace: in the TUI's dialog, with `steer trust`, or for one
// process with --trust-project. A trust is recorded in the state directory
// per canonical workspace path with the hashes of those files
// (trustfiles.go); a change to any of them revokes it, and steer asks
// again.
//
// Text a workspace brings (context files, prompt templates) loads without
// trust. Features that must wait for it ask WorkspaceTrusted.

// WorkspaceTrust is how the workspace stands: what it brings, for the
// dialog and `steer trust`, and whether it is trusted.
type WorkspaceTrust struct {
	// Path is the workspace's canonical path.
	Path string `json:"path"`
	// Config is its project config file, "" for none; ConfigKeys the
	// top-level keys the file sets (hooks, mcpServers, …).
	Config     string   `json:"config,omitempty"`
	ConfigKeys []string `json:"configKeys,omitempty"`
	// MCP is its .mcp.json, "" for none; MCPCommands what each server
	// would run or reach.
	MCP         string   `json:"mcp,omitempty"`
	MCPCommands []string `json:"mcpCommands,omitempty"`
	// HookFiles are the scripts the project config's hooks run; Skills the
	// workspace's skill folders.
	HookFiles []string `json:"hookFiles,omitempty"`
	Skills    []string `json:"skills,omitempty"`
	// Trusted: the user trusts these files (or --trust-project trusts them
	// for this process: ForRun). Changed: a trust was recorded, but the
	// files changed since.
	Trusted bool `json:"trusted"`
	ForRun  bool `json:"forRun,omitempty"`
	Changed bool `json:"changed,omitempty"`
}

// Brings reports whether the workspace brings anything that needs trust.
func (w WorkspaceTrust) Brings() bool { return w.Config != "" || w.MCP != "" || len(w.Skills) > 0 }

// Summary lists what the workspace brings, for `steer trust` and the
// terminal UI's question: the project config with the keys it sets, and
// each command the .mcp.json would run.
func (w WorkspaceTrust) Summary() string {
	if !w.Brings() {
		return w.Path + " brings no project config, no " + mcp.ProjectFile + " and no skills."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s brings:\n", w.Path)
	if w.Config != "" {
		fmt.Fprintf(&b, "  project config %s, setting: %s\n", w.Config, strings.Join(w.ConfigKeys, ", "))
		for _, f := range w.HookFiles {
			fmt.Fprintf(&b, "    a hook runs %s\n", f)
		}
	}
	if len(w.Skills) > 0 {
		fmt.Fprintf(&b, "  skills, which the model may follow and whose scripts it may run:\n")
		for _, s := range w.Skills {
			fmt.Fprintf(&b, "    %s\n", s)
		}
	}
	if w.MCP != "" {
		fmt.Fprintf(&b, "  %s, whose MCP servers would run:\n", w.MCP)
		for _, c := range w.MCPCommands {
			fmt.Fprintf(&b, "    %s\n", c)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// WorkspaceGate holds the workspace's trust decision for the process and
// records the user's trust. It is safe for concurrent use.
type WorkspaceGate struct {
	store *trust.Store
	// files are the files a trust covers, present or not; rec is the
	// workspace with those of them present, as read at the start.
	files []string
	rec   trust.Workspace

	mu sync.Mutex
	st WorkspaceTrust
}

// CheckWorkspace finds what the workspace dir brings and how it stands in
// the state directory's record; forRun (--trust-project) trusts it for
// this process without recording anything. An unreadable record trusts
// nothing: the gate is still returned with the error, to be said.
func CheckWorkspace(dir, stateDir string, forRun bool) (*WorkspaceGate, error) {
	canon, err := trust.Canonical(dir)
	if err != nil {
		return nil, err
	}
	st := WorkspaceTrust{Path: canon, Config: config.FindProject(canon)}
	files := []string{filepath.Join(canon, mcp.ProjectFile)}
	if st.Config != "" {
		st.HookFiles = hookFiles(st.Config, canon)
		files = append(append(files, st.Config), st.HookFiles...)
	}
	skillFolders, skillFiles := projectSkills(canon)
	st.Skills = skillFolders
	files = append(files, skillFiles...)
	rec, err := trust.Describe(canon, files...)
	if err != nil {
		return nil, err
	}
	if _, ok := rec.Files[files[0]]; ok {
		st.MCP = files[0]
	}
	g := &WorkspaceGate{store: trust.NewStore(stateDir), files: files, rec: rec, st: st}
	state, err := g.store.Check(rec)
	g.st.Trusted, g.st.Changed = state.Trusted || forRun, state.Changed
	g.st.ForRun = forRun && !state.Trusted
	return g, err
}

// Describe fills in what the files bring: the project config's keys (from
// the loaded layers) and the .mcp.json's commands.
func (g *WorkspaceGate) Describe(layers []config.Layer, project *mcp.Project) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if i := slices.IndexFunc(layers, func(l config.Layer) bool { return l.Kind == config.LayerProject }); i >= 0 {
		g.st.ConfigKeys = layers[i].Keys
	}
	if project != nil {
		g.st.MCPCommands = project.Commands()
	}
}

// State is how the workspace stands now.
func (g *WorkspaceGate) State() WorkspaceTrust {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := g.st
	st.ConfigKeys = slices.Clone(st.ConfigKeys)
	st.MCPCommands = slices.Clone(st.MCPCommands)
	st.HookFiles, st.Skills = slices.Clone(st.HookFiles), slices.Clone(st.Skills)
	return st
}

// Trusted reports whether what the workspace brings may take effect.
func (g *WorkspaceGate) Trusted() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.st.Trusted
}

// Grant records that the user trusts the workspace with its files as
// they were when the gate was made: a file changed since is not what the
// user was shown, and is not trusted.
func (g *WorkspaceGate) Grant() error {
	g.mu.Lock()
	rec, files := g.rec, g.files
	g.mu.Unlock()
	now, err := trust.Describe(rec.Path, files...)
	if err != nil {
		return err
	}
	if !maps.Equal(now.Files, rec.Files) {
		return errors.New("the workspace's files changed since steer read them: start steer again to see what they bring")
	}
	if err := g.store.Trust(rec); err != nil {
		return err
	}
	g.mu.Lock()
	g.st.Trusted, g.st.Changed, g.st.ForRun = true, false, false
	g.mu.Unlock()
	return nil
}

// Revoke forgets the recorded trust of the workspace; it reports whether
// there was one.
func (g *WorkspaceGate) Revoke() (bool, error) {
	found, err := g.store.Revoke(g.rec.Path)
	if err == nil {
		g.mu.Lock()
		g.st.Trusted, g.st.ForRun = false, false
		g.mu.Unlock()
	}
	return found, err
}

// trustDesk is the runtime's part for the workspace trust: the process's
// gate (shared by a host's sessions), and the MCP manager whose workspace
// servers a trust starts.
type trustDesk struct {
	g   *WorkspaceGate
	m   *mcp.Manager
	cfg ConfigView
}

// WorkspaceTrust is how the workspace stands, for the trust dialog; false
// when it brings nothing that needs trust.
func (d *trustDesk) WorkspaceTrust() (WorkspaceTrust, bool) {
	if d.g == nil {
		return WorkspaceTrust{}, false
	}
	st := d.g.State()
	return st, st.Brings()
}

// WorkspaceTrusted reports whether what the workspace brings may take
// effect: the user trusts it (or --trust-project). A runtime made without
// a gate (Options.Trust) trusts nothing. Features that bring code from the
// workspace (skills' scripts, project hooks) ask this.
func (d *trustDesk) WorkspaceTrusted() bool { return d.g != nil && d.g.Trusted() }

// TrustWorkspace records that the user trusts the workspace as it is now
// and starts its .mcp.json servers. Its project config takes effect when
// steer next starts: the running configuration is not rebuilt.
func (d *trustDesk) TrustWorkspace() error {
	if d.g == nil {
		return errors.New("no workspace to trust")
	}
	if err := d.g.Grant(); err != nil {
		return err
	}
	if d.m != nil && d.m.Project() != nil {
		d.m.StartProject()
	}
	return nil
}

// Amend records that steer itself changed file, the project config (a
// rule saved to it): a workspace that was trusted, or brought nothing that
// needs trust before, is trusted with the file as it is now; one that was
// not still waits for the user's trust, which will then cover the file.
func (g *WorkspaceGate) Amend(file string, wasTrusted bool) error {
	h, err := trust.Hash(file)
	if err != nil {
		return err
	}
	g.mu.Lock()
	rec := g.rec
	rec.Files = maps.Clone(rec.Files)
	rec.Files[file] = h
	if !slices.Contains(g.files, file) {
		g.files = append(g.files, file)
	}
	g.rec = rec
	forRun := g.st.ForRun
	trustNow := (wasTrusted || !g.st.Brings()) && !forRun
	if trustNow {
		g.st.Config, g.st.Trusted, g.st.Changed = file, true, false
	}
	g.mu.Unlock()
	if !trustNow {
		return nil
	}
	return g.store.Trust(rec)
}

// Files are the files a trust of the workspace covers, present or not:
// the protected paths every write asks for.
func (g *WorkspaceGate) Files() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.files)
}
