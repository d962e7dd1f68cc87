package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/skills"
)

// TestLibraryReachesTheModel: a global skill is listed in the system
// prompt of the request, /skill:name hello sends its body with "hello"
// after it, a skill added after the first request is in the next one, and
// /skill: naming no skill is refused without sending anything.
func TestLibraryReachesTheModel(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	put := func(rel, text string) string {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pdf := put(".claude/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Read PDF files.\nlicense: MIT\n---\nRun pdftotext first.\n")
	script := agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
	rt := newRuntime(t, nil, script, Options{Workspace: ws, UserDirs: skills.UserDirs{Home: home}})

	if err := rt.Prompt(context.Background(), "/skill:pdf hello"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	put(".agents/skills/later/SKILL.md", "---\nname: later\ndescription: Added while running.\n---\nx\n")
	if err := rt.Prompt(context.Background(), "plain"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	reqs := script.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if sp := reqs[0].SystemPrompt; !strings.Contains(sp, "<name>pdf</name>") || !strings.Contains(sp, "<location>"+pdf+"</location>") {
		t.Errorf("the first system prompt lists no pdf skill:\n%s", sp)
	}
	want := "<skill name=\"pdf\" location=\"" + pdf + "\">\nReferences are relative to " + filepath.Dir(pdf) +
		".\n\nRun pdftotext first.\n</skill>\n\nhello"
	if got := reqs[0].Messages[0].Typed(); got != want {
		t.Errorf("sent %q\nwant %q", got, want)
	}
	if !strings.Contains(reqs[1].SystemPrompt, "<name>later</name>") {
		t.Errorf("the skill added on disk is not in the next request")
	}
	err := rt.Prompt(context.Background(), "/skill:nope hi")
	if err == nil || !strings.Contains(err.Error(), `no skill "nope": the skills are later, pdf`) {
		t.Fatalf("unknown skill: %v", err)
	}
	if n := len(rt.agent.State().Messages); n != 4 {
		t.Fatalf("%d messages after the refusal, want 4", n)
	}
}

// TestProjectSkillsWaitForTrust: a workspace's skill is skipped, with the
// reason, until the workspace is trusted; a global one is not.
func TestProjectSkillsWaitForTrust(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	for _, p := range []string{filepath.Join(ws, ".agents/skills/deploy/SKILL.md"), filepath.Join(home, ".claude/skills/pdf/SKILL.md")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(p))
		if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: d\n---\nx\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, trusted := range []bool{false, true} {
		gate, err := CheckWorkspace(ws, t.TempDir(), trusted)
		if err != nil {
			t.Fatal(err)
		}
		if st := gate.State(); len(st.Skills) != 1 || !st.Brings() {
			t.Fatalf("the gate sees skills %v", st.Skills)
		}
		script := agenttest.NewScript()
		rt := newRuntime(t, nil, script, Options{Workspace: ws, UserDirs: skills.UserDirs{Home: home}, Trust: gate})
		var names []string
		for _, s := range rt.Library(nil).Skills {
			names = append(names, s.Name)
		}
		want := "pdf"
		if trusted {
			want = "deploy pdf"
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("trusted %v: skills %q, want %q", trusted, got, want)
		}
		_, err = rt.library.expand(agent.QueueFollowUp, "/skill:deploy now")
		if !trusted && (err == nil || !strings.Contains(err.Error(), "not trusted")) {
			t.Errorf("an untrusted skill expanded: %v", err)
		}
	}
}
