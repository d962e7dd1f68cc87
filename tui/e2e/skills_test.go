package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSkillsInTmux: a skill folder in the workspace's .claude/skills makes
// steer ask for the workspace's trust, naming it; allowed, it shows in
// completion as "/sk" is typed, and /skills lists it with its file.
func TestSkillsInTmux(t *testing.T) {
	requireTmux(t)
	ws := t.TempDir()
	dir := filepath.Join(ws, ".claude", "skills", "pdf")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: pdf\ndescription: Extract text from PDF files\n---\nRun pdftotext.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	url, _ := recordingServer(t)
	p := startIn(t, ws, mentionConfig(t, url), "local/plain")
	p.waitFor("the trust question", "Trust this workspace?", 10*time.Second)
	p.waitFor("the skill named", filepath.Join(".claude", "skills", "pdf"), 5*time.Second)
	time.Sleep(quiet) // a deliberate key, not one typed ahead
	p.typeText("a")
	p.waitFor("the trust", "trusted "+ws, 10*time.Second)
	p.typeText("/sk")
	p.waitFor("the completion", "/skill:pdf", 10*time.Second)
	p.waitFor("the description", "Extract text from PDF files", 10*time.Second)
	p.typeText("ills", "Enter")
	p.waitFor("the /skills list", ".claude/skills/pdf/SKILL.md", 10*time.Second)
}
