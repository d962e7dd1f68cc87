package config

import "github.com/steer-tui/steer/agent/runner/hooks"

// The hooks, in Claude Code's shape (its settings.json "hooks" object):
//
//	"hooks": {
//	  "PreToolUse": [{"matcher": "Bash",
//	                  "hooks": [{"type": "command", "command": "./check.sh", "timeout": 2}]}]
//	}
//
// Only "command" hooks run; Claude Code's other types are refused as not
// supported yet, and an unknown event or type is an error.
type fileHookGroup struct {
	Matcher string     `json:"matcher"`
	Hooks   []fileHook `json:"hooks"`
}

type fileHook struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
	// Prompt and Model belong to Claude Code's "prompt" hooks: read so that
	// such a hook is refused for its type, not for an unknown key.
	Prompt string `json:"prompt"`
	Model  string `json:"model"`
}

// claudeOnlyTypes are the hook types Claude Code has and steer does not.
var claudeOnlyTypes = map[string]bool{"prompt": true, "agent": true, "http": true, "mcp_tool": true}

// hooks checks and stores the hooks, numbered per event in file order.
func (b *builder) hooks(c *Config, fc *fileConfig, root *node) error {
	for _, f := range root.get("hooks").keysOrNil() {
		ev, ok := hooks.ParseEvent(f.name)
		path := joinPath("hooks", f.name)
		if !ok {
			return b.errAt(path, "unknown hook event %q (want one of %v)", f.name, hooks.Events)
		}
		index := 0
		for gi, g := range fc.Hooks[f.name] {
			gpath := indexPath(path, gi)
			for hi, fh := range g.Hooks {
				hpath := indexPath(joinPath(gpath, "hooks"), hi)
				switch {
				case claudeOnlyTypes[fh.Type]:
					return b.errAt(hpath+".type", "%q hooks are not supported yet: steer runs \"command\" hooks", fh.Type)
				case fh.Type != "command":
					return b.errAt(hpath+".type", "unknown hook type %q (want \"command\")", fh.Type)
				case fh.Timeout < 0:
					return b.errAt(hpath+".timeout", "must not be negative, got %g", fh.Timeout)
				}
				h, err := hooks.New(hooks.Hook{Event: ev, Matcher: g.Matcher, Command: fh.Command,
					Timeout: seconds(fh.Timeout), Source: b.file, Index: index})
				if err != nil {
					return b.errAt(hpath, "%v", err)
				}
				c.Hooks = append(c.Hooks, h)
				index++
			}
		}
	}
	return nil
}
