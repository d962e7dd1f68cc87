package skills

import (
	"encoding/xml"
	"strings"
)

// SystemPrompt is the part of the system prompt that tells the model about
// the skills it may use — each model-invocable skill's name, description
// and SKILL.md path, in the Agent Skills format's <available_skills> shape
// — or "" when there are none.
func (c Catalog) SystemPrompt() string {
	var b strings.Builder
	for _, s := range c.Skills {
		if !s.ModelInvocable {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("# Skills\n\n" +
				"The following skills provide specialised instructions for specific tasks. When a task matches a " +
				"skill's description, read its SKILL.md with the read tool (at the location given) before acting, " +
				"and resolve the relative paths it names against the skill's folder, the SKILL.md's directory.\n\n" +
				"<available_skills>\n")
		}
		b.WriteString("  <skill>\n")
		b.WriteString("    <name>" + escape(s.Name) + "</name>\n")
		b.WriteString("    <description>" + escape(strings.Join(strings.Fields(s.Description), " ")) + "</description>\n")
		b.WriteString("    <location>" + escape(s.Path) + "</location>\n")
		b.WriteString("  </skill>\n")
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteString("</available_skills>")
	return b.String()
}

// escape makes s safe as XML text.
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}
