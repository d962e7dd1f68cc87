// Package skills finds the user's own commands on disk — Agent Skills
// (https://agentskills.io) and prompt templates — and turns their slash
// commands into the message they send.
//
// # Skills
//
// A skill is a folder holding SKILL.md: YAML front matter with name and
// description (and optionally disable-model-invocation, user-invocable and
// the other keys the format defines, which are accepted and not used),
// then Markdown instructions. The folders are looked for, in this order,
// in the workspace's .steer/skills, .agents/skills and .claude/skills, then
// in steer's global config directory's skills, ~/.agents/skills and
// ~/.claude/skills; the first skill of a name wins and a later one of the
// same name is listed as skipped, as is one whose front matter is bad or
// lacks its name or description.
//
// The model is shown each skill's name, description and SKILL.md path
// (SystemPrompt) and reads the body with the read tool when it decides to
// use it. The user invokes one with "/skill:<name> [args]", which sends
// pi's shape of the skill's body, the arguments after it:
//
//	<skill name="NAME" location="/path/to/NAME/SKILL.md">
//	References are relative to /path/to/NAME.
//
//	BODY (SKILL.md without its front matter)
//	</skill>
//
//	ARGS
//
// # Prompt templates
//
// A prompt template is a Markdown file NAME.md in the workspace's
// .steer/prompts, the global config directory's prompts or pi's
// ~/.pi/agent/prompts (pi's format: optional front matter with description
// and argument-hint). "/NAME args" sends its body with the arguments put in
// as pi does: $1, $2… one word each (quotes keep a word's spaces), $@ and
// $ARGUMENTS all of them, ${@:N} those from the Nth, ${@:N:L} L of them;
// what is put in is not expanded again.
//
// Both are text: loading one runs nothing, so they load without the
// workspace being trusted. Loading is cheap enough to run again before each
// request, so a skill or template changed on disk is used at once.
package skills
