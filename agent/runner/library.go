package runner

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/skills"
)

// The user's library is the skills and prompt templates of the session's
// workspace and of the user's directories (package skills). It is read
// again each time it is asked for — before each request, for the system
// prompt; at each input, to expand one; when a front end lists it — so a
// skill or template added or changed on disk is used without a restart.
// It is text: reading it runs nothing, and it needs no workspace trust.
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
}

// Library reads the library as it is on disk now. Templates named like
// one of reserved — the front end's own commands, which win — are listed
// as skipped. It does IO.
func (l *library) Library(reserved []string) Library {
	return skills.Load(l.workspace, l.user).Reserving(reserved)
}

// expand is the text an input of kind sends: a skill's or template's
// message when text invokes one (shell commands are never expanded).
func (l *library) expand(kind agent.QueueKind, text string) (string, error) {
	if kind == agent.QueueShell || kind == agent.QueueShellPrivate || len(text) == 0 || text[0] != '/' {
		return text, nil
	}
	out, _, err := skills.Load(l.workspace, l.user).Expand(text)
	return out, err
}

// withSkills is system with the section that lists the skills the model
// may use, as they are on disk now.
func (l *library) withSkills(system string) string {
	section := skills.Load(l.workspace, l.user).SystemPrompt()
	if section == "" {
		return system
	}
	if system == "" {
		return section
	}
	return system + "\n\n" + section
}
