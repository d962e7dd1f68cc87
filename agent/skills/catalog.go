package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/steer-tui/steer/agent/humanize"
)

// maxFileBytes bounds a SKILL.md or template that is read: a larger one is
// skipped rather than sent.
const maxFileBytes = 256 * 1024

// Skill is one skill found on disk.
type Skill struct {
	Name        string
	Description string
	// Path is its SKILL.md, under the root it was found in (a symbolic link
	// to the folder is not resolved); Dir is the folder.
	Path, Dir string
	Level     Level
	// ModelInvocable is false for disable-model-invocation: true, which
	// keeps it out of the system prompt; UserInvocable is false for
	// user-invocable: false, which keeps it out of "/" completion. Both
	// can still be invoked with /skill:<name>.
	ModelInvocable, UserInvocable bool
}

// Template is one prompt template found on disk.
type Template struct {
	// Name is its command, the file name without .md.
	Name string
	// Description is the front matter's, else the body's first line.
	Description  string
	ArgumentHint string
	Path         string
	Level        Level
	// Body is the file without its front matter.
	Body string
}

// Skipped is a file found but not used, and why.
type Skipped struct {
	// Kind is "skill" or "template".
	Kind   string
	Path   string
	Level  Level
	Reason string
}

// Catalog is what was found: the skills and templates in the order their
// roots are looked at, and what was skipped.
type Catalog struct {
	Skills    []Skill
	Templates []Template
	Skipped   []Skipped
}

// Load finds the skills and templates of workspace and the user's
// directories. A root that does not exist is no error; a file that cannot
// be used is skipped with the reason.
func Load(workspace string, u UserDirs) Catalog {
	var c Catalog
	seen := map[string]string{}
	for _, root := range SkillRoots(workspace, u) {
		dirs, err := subdirs(root.Dir)
		if err != nil {
			c.Skipped = append(c.Skipped, Skipped{Kind: "skill", Path: root.Dir, Level: root.Level, Reason: err.Error()})
		}
		for _, dir := range dirs {
			path := filepath.Join(dir, "SKILL.md")
			if _, err := os.Stat(path); err != nil {
				continue // a folder that is not a skill
			}
			s, err := readSkill(path, root.Level)
			if err == nil {
				if first, dup := seen[s.Name]; dup {
					err = fmt.Errorf("duplicate name %q: the skill at %s is used", s.Name, first)
				}
			}
			if err != nil {
				c.Skipped = append(c.Skipped, Skipped{Kind: "skill", Path: path, Level: root.Level, Reason: err.Error()})
				continue
			}
			seen[s.Name] = path
			c.Skills = append(c.Skills, s)
		}
	}
	seen = map[string]string{}
	for _, root := range TemplateRoots(workspace, u) {
		paths, err := markdownFiles(root.Dir)
		if err != nil {
			c.Skipped = append(c.Skipped, Skipped{Kind: "template", Path: root.Dir, Level: root.Level, Reason: err.Error()})
		}
		for _, path := range paths {
			t, err := readTemplate(path, root.Level)
			if err == nil {
				if first, dup := seen[t.Name]; dup {
					err = fmt.Errorf("duplicate name %q: the template at %s is used", t.Name, first)
				}
			}
			if err != nil {
				c.Skipped = append(c.Skipped, Skipped{Kind: "template", Path: path, Level: root.Level, Reason: err.Error()})
				continue
			}
			seen[t.Name] = path
			c.Templates = append(c.Templates, t)
		}
	}
	return c
}

// WithoutProjectSkills moves the workspace's skills to the skipped, with
// reason: an untrusted workspace's skills are not offered.
func (c Catalog) WithoutProjectSkills(reason string) Catalog {
	out := Catalog{Templates: c.Templates, Skipped: c.Skipped}
	for _, s := range c.Skills {
		if s.Level == Project {
			out.Skipped = append(out.Skipped, Skipped{Kind: "skill", Path: s.Path, Level: s.Level, Reason: reason})
			continue
		}
		out.Skills = append(out.Skills, s)
	}
	return out
}

// Reserving moves the templates named like one of names (the front end's
// own commands, which win) to the skipped.
func (c Catalog) Reserving(names []string) Catalog {
	reserved := map[string]bool{}
	for _, n := range names {
		reserved[strings.ToLower(n)] = true
	}
	out := Catalog{Skills: c.Skills, Skipped: append([]Skipped(nil), c.Skipped...)}
	for _, t := range c.Templates {
		if reserved[strings.ToLower(t.Name)] {
			out.Skipped = append(out.Skipped, Skipped{Kind: "template", Path: t.Path, Level: t.Level,
				Reason: fmt.Sprintf("/%s is a built-in command, which wins", t.Name)})
			continue
		}
		out.Templates = append(out.Templates, t)
	}
	return out
}

// Skill finds the skill called name.
func (c Catalog) Skill(name string) (Skill, bool) {
	for _, s := range c.Skills {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}

// Template finds the template called name.
func (c Catalog) Template(name string) (Template, bool) {
	for _, t := range c.Templates {
		if t.Name == name {
			return t, true
		}
	}
	return Template{}, false
}

// skillFront is what steer reads of a SKILL.md's front matter. Pointers
// tell a key left out from one set to its zero value.
type skillFront struct {
	Name                   string `yaml:"name"`
	Description            string `yaml:"description"`
	DisableModelInvocation bool   `yaml:"disable-model-invocation"`
	UserInvocable          *bool  `yaml:"user-invocable"`
}

// readSkill reads the SKILL.md at path.
func readSkill(path string, level Level) (Skill, error) {
	data, err := readBounded(path)
	if err != nil {
		return Skill{}, err
	}
	front, _, err := splitFrontMatter(data)
	if err != nil {
		return Skill{}, err
	}
	if front == nil {
		return Skill{}, errors.New("no front matter: SKILL.md must start with --- and a name and description")
	}
	var f skillFront
	if err := parseFrontMatter(front, &f); err != nil {
		return Skill{}, err
	}
	name, desc := strings.TrimSpace(f.Name), strings.TrimSpace(f.Description)
	switch {
	case name == "" && desc == "":
		return Skill{}, errors.New("the front matter has no name and no description")
	case name == "":
		return Skill{}, errors.New("the front matter has no name")
	case desc == "":
		return Skill{}, errors.New("the front matter has no description")
	case strings.ContainsAny(name, " \t\n/\\:"):
		return Skill{}, fmt.Errorf("name %q holds a space, a slash or a colon, which /skill:<name> cannot carry", name)
	}
	return Skill{Name: name, Description: desc, Path: path, Dir: filepath.Dir(path), Level: level,
		ModelInvocable: !f.DisableModelInvocation, UserInvocable: f.UserInvocable == nil || *f.UserInvocable}, nil
}

// templateFront is what steer reads of a template's front matter.
type templateFront struct {
	Description  string `yaml:"description"`
	ArgumentHint string `yaml:"argument-hint"`
}

// maxDescription is how much of a template's first line stands for a
// missing description (pi's length).
const maxDescription = 60

// readTemplate reads the template at path.
func readTemplate(path string, level Level) (Template, error) {
	name := strings.TrimSuffix(filepath.Base(path), ".md")
	if name == "" || strings.ContainsAny(name, " \t:") {
		return Template{}, fmt.Errorf("the name %q holds a space or a colon, which a command cannot", name)
	}
	data, err := readBounded(path)
	if err != nil {
		return Template{}, err
	}
	front, body, err := splitFrontMatter(data)
	if err != nil {
		return Template{}, err
	}
	var f templateFront
	if err := parseFrontMatter(front, &f); err != nil {
		return Template{}, err
	}
	desc := strings.TrimSpace(f.Description)
	if desc == "" {
		for _, line := range strings.Split(body, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				desc = humanize.Clip(line, maxDescription)
				break
			}
		}
	}
	return Template{Name: name, Description: desc, ArgumentHint: strings.TrimSpace(f.ArgumentHint),
		Path: path, Level: level, Body: strings.TrimSpace(body)}, nil
}

// readBounded reads a file of at most maxFileBytes.
func readBounded(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if info.Size() > maxFileBytes {
		return nil, fmt.Errorf("%d KB, more than the %d KB a skill or template may hold", info.Size()/1024, maxFileBytes/1024)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// subdirs lists the folders in dir (following symbolic links to them),
// sorted by name; none and no error when dir does not exist.
func subdirs(dir string) ([]string, error) {
	entries, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			out = append(out, p)
		}
	}
	return out, nil
}

// markdownFiles lists the .md files in dir (not below it), sorted by
// name; none and no error when dir does not exist.
func markdownFiles(dir string) ([]string, error) {
	entries, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			out = append(out, p)
		}
	}
	return out, nil
}

// readDir is os.ReadDir, with a directory that does not exist empty.
func readDir(dir string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return entries, err
}
