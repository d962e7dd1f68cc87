package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write makes the file rel under dir with text, and its folders.
func write(t *testing.T, dir, rel, text string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadSkill: the front matter the format defines is read, keys steer
// does not use are accepted, and each way of being unusable is skipped
// with its reason.
func TestReadSkill(t *testing.T) {
	cases := []struct {
		name, file string
		want       Skill // Path, Dir and Level are filled in
		reason     string
	}{
		{"plain", "---\nname: pdf\ndescription: Read PDFs.\n---\nBody\n",
			Skill{Name: "pdf", Description: "Read PDFs.", ModelInvocable: true, UserInvocable: true}, ""},
		{"the format's other keys", "---\nname: pdf\ndescription: Read PDFs.\nlicense: MIT\nallowed-tools: Bash(pdftotext:*) Read\n" +
			"metadata:\n  author: ann\n  version: \"1.0\"\ncompatibility: needs poppler\n---\n",
			Skill{Name: "pdf", Description: "Read PDFs.", ModelInvocable: true, UserInvocable: true}, ""},
		{"flags", "---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\nuser-invocable: false\n---\n",
			Skill{Name: "deploy", Description: "Deploys.", ModelInvocable: false, UserInvocable: false}, ""},
		{"folded description, CRLF", "---\r\nname: x\r\ndescription: >\r\n  two\r\n  lines\r\n---\r\n",
			Skill{Name: "x", Description: "two lines", ModelInvocable: true, UserInvocable: true}, ""},
		{"no front matter", "# Just text\n", Skill{}, "no front matter"},
		{"not closed", "---\nname: x\ndescription: y\n", Skill{}, "not closed"},
		{"bad yaml", "---\nname: x\ndescription: : y\n---\n", Skill{}, "bad front matter: line 3"},
		{"wrong type", "---\nname: x\ndescription: y\ndisable-model-invocation: sometimes\n---\n", Skill{}, "bad front matter"},
		{"no name", "---\ndescription: y\n---\n", Skill{}, "has no name"},
		{"no description", "---\nname: x\n---\n", Skill{}, "has no description"},
		{"neither", "---\nlicense: MIT\n---\n", Skill{}, "no name and no description"},
		{"a space in the name", "---\nname: my skill\ndescription: y\n---\n", Skill{}, "holds a space"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, t.TempDir(), "s/SKILL.md", c.file)
			got, err := readSkill(p, Global)
			if c.reason != "" {
				if err == nil || !strings.Contains(err.Error(), c.reason) {
					t.Fatalf("error %v, want one saying %q", err, c.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.want.Path, c.want.Dir, c.want.Level = p, filepath.Dir(p), Global
			if got != c.want {
				t.Fatalf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestReadTemplate: description and argument-hint from the front matter,
// else the description is the first line; the body is what follows.
func TestReadTemplate(t *testing.T) {
	cases := []struct {
		name, file, base string
		want             Template
		reason           string
	}{
		{"front matter", "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $1.\n", "review.md",
			Template{Name: "review", Description: "Review a file", ArgumentHint: "<file>", Body: "Review $1."}, ""},
		{"first line", "\n\nFix the failing tests in $ARGUMENTS\nthen commit.\n", "fix.md",
			Template{Name: "fix", Description: "Fix the failing tests in $ARGUMENTS", Body: "Fix the failing tests in $ARGUMENTS\nthen commit."}, ""},
		{"long first line", strings.Repeat("a", 80), "long.md",
			Template{Name: "long", Description: strings.Repeat("a", 59) + "…", Body: strings.Repeat("a", 80)}, ""},
		{"bad yaml", "---\ndescription: [\n---\nx", "bad.md", Template{}, "bad front matter"},
		{"a space", "x", "my prompt.md", Template{}, "holds a space"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, t.TempDir(), c.base, c.file)
			got, err := readTemplate(p, Project)
			if c.reason != "" {
				if err == nil || !strings.Contains(err.Error(), c.reason) {
					t.Fatalf("error %v, want one saying %q", err, c.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.want.Path, c.want.Level = p, Project
			if got != c.want {
				t.Fatalf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestLoadOrder: the project's roots come before the user's, steer's own
// folder first; the first skill or template of a name wins and the later
// one is skipped naming the one used; bad files are skipped with their
// reason; folders without SKILL.md are not skills; a built-in command's
// name makes a template skipped.
func TestLoadOrder(t *testing.T) {
	ws, config, home := t.TempDir(), t.TempDir(), t.TempDir()
	skill := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\nDo " + name + ".\n"
	}
	pSteer := write(t, ws, ".steer/skills/a/SKILL.md", skill("alpha", "steer's"))
	pAgents := write(t, ws, ".agents/skills/a/SKILL.md", skill("alpha", "agents'"))
	pClaude := write(t, ws, ".claude/skills/b/SKILL.md", skill("beta", "claude's"))
	pGlobal := write(t, config, "skills/g/SKILL.md", skill("gamma", "global"))
	pHome := write(t, home, ".claude/skills/d/SKILL.md", skill("beta", "home's"))
	pBad := write(t, home, ".agents/skills/bad/SKILL.md", "---\nname: bad\n---\n")
	write(t, home, ".agents/skills/notes/README.md", "not a skill")
	tReview := write(t, ws, ".steer/prompts/review.md", "Review $1")
	tReview2 := write(t, config, "prompts/review.md", "Review again")
	tModel := write(t, home, ".pi/agent/prompts/model.md", "clashes")
	tPi := write(t, home, ".pi/agent/prompts/pi.md", "From pi")

	c := Load(ws, UserDirs{Config: config, Home: home}).Reserving([]string{"model", "help"})
	var skills []string
	for _, s := range c.Skills {
		skills = append(skills, s.Name+"="+s.Path+"@"+string(s.Level))
	}
	want := []string{"alpha=" + pSteer + "@project", "beta=" + pClaude + "@project", "gamma=" + pGlobal + "@global"}
	if strings.Join(skills, "\n") != strings.Join(want, "\n") {
		t.Errorf("skills:\n%s\nwant:\n%s", strings.Join(skills, "\n"), strings.Join(want, "\n"))
	}
	var templates []string
	for _, tp := range c.Templates {
		templates = append(templates, tp.Name+"="+tp.Path)
	}
	if want := []string{"review=" + tReview, "pi=" + tPi}; strings.Join(templates, "\n") != strings.Join(want, "\n") {
		t.Errorf("templates: %v, want %v", templates, want)
	}
	skipped := map[string]string{}
	for _, s := range c.Skipped {
		skipped[s.Path] = s.Reason
	}
	wantSkipped := map[string]string{
		pAgents:  `duplicate name "alpha": the skill at ` + pSteer + " is used",
		pHome:    `duplicate name "beta": the skill at ` + pClaude + " is used",
		pBad:     "the front matter has no description",
		tReview2: `duplicate name "review": the template at ` + tReview + " is used",
		tModel:   "/model is a built-in command, which wins",
	}
	if len(skipped) != len(wantSkipped) {
		t.Errorf("skipped %v, want %v", skipped, wantSkipped)
	}
	for p, r := range wantSkipped {
		if skipped[p] != r {
			t.Errorf("%s: skipped for %q, want %q", p, skipped[p], r)
		}
	}
}

// TestSkillRootsOnce: a workspace that is the home directory lists its
// folders once.
func TestSkillRootsOnce(t *testing.T) {
	home := t.TempDir()
	roots := SkillRoots(home, UserDirs{Home: home})
	var dirs []string
	for _, r := range roots {
		dirs = append(dirs, r.Dir)
	}
	want := []string{filepath.Join(home, ".steer/skills"), filepath.Join(home, ".agents/skills"), filepath.Join(home, ".claude/skills")}
	if strings.Join(dirs, " ") != strings.Join(want, " ") {
		t.Fatalf("roots %v, want %v", dirs, want)
	}
}
