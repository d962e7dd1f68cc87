package runner

import (
	"sync/atomic"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/skills"
)

// The user's library is the skills and prompt templates of the session's
// workspace and of the user's directories (package skills). It is read
// again each time it is asked for — before each request, for the system
// prompt; at each input, to expand one; when a front end lists it — so a
// skill or template added or changed on disk is used without a restart.
// Templates are text and load without trust; the workspace's skills wait
// for it (trust.go): they tell the model to run their scripts. Before the
// workspace is trusted they are listed as skipped, and not offered.
//
// Every front end expands the same way, here, as an input is taken:
// "/skill:<name> [args]" and "/<template> [args]" typed in the TUI, given
// to steer run or sent over rpc become the message skills.Catalog.Expand
// makes; the transcript and the model get that message.

// Library is what the library holds: the skills, the templates and the
// files skipped with the reason.
type Library = skills.Catalog

// Skill is one skill of the Library.
type Skill = skills.Skill

// PromptTemplate is one prompt template of the Library.
type PromptTemplate = skills.Template

// SkippedFile is a skill or template found but not used.
type SkippedFile = skills.Skipped

// SkillPrefix starts the command that invokes a skill: /skill:<name>.
const SkillPrefix = skills.SkillPrefix

// library reads the user's library for one workspace.
type library struct {
	workspace string
	user      skills.UserDirs
	// trusted reports whether the workspace is trusted (nil: it is not).
	trusted func() bool
	// last is the skills section of the last request's prompt, for the
	// context meter, which does no IO.
	last atomic.Pointer[string]
}

// untrustedSkill is why a workspace's skill is not offered.
const untrustedSkill = "this workspace is not trusted: its skills wait for `steer trust`"

// load reads the library, the workspace's skills only once it is trusted.
func (l *library) load() skills.Catalog {
	c := skills.Load(l.workspace, l.user)
	if l.trusted == nil || !l.trusted() {
		c = c.WithoutProjectSkills(untrustedSkill)
	}
	return c
}

// Library reads the library as it is on disk now. Templates named like
// one of reserved — the front end's own commands, which win — are listed
// as skipped. It does IO.
func (l *library) Library(reserved []string) Library {
	return l.load().Reserving(reserved)
}

// expand is the text an input of kind sends: a skill's or template's
// message when text invokes one (shell commands are never expanded).
func (l *library) expand(kind agent.QueueKind, text string) (string, error) {
	if kind == agent.QueueShell || kind == agent.QueueShellPrivate || len(text) == 0 || text[0] != '/' {
		return text, nil
	}
	out, _, err := l.load().Expand(text)
	return out, err
}

// withSkills is system with the section that lists the skills the model
// may use, as they are on disk now.
func (l *library) withSkills(system string) string {
	section := l.skillsSection()
	l.last.Store(&section)
	return joinSkills(system, section)
}

// withLastSkills is system with the skills section the last request had,
// without IO.
func (l *library) withLastSkills(system string) string {
	if s := l.last.Load(); s != nil {
		return joinSkills(system, *s)
	}
	return system
}

func joinSkills(system, section string) string {
	if section == "" {
		return system
	}
	if system == "" {
		return section
	}
	return system + "\n\n" + section
}

// skillsSection is the system prompt's section on the skills, as they are
// on disk now ("" with none).
func (l *library) skillsSection() string { return l.load().SystemPrompt() }
