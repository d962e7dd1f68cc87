package scripted

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// callVerb starts a prompt that calls any tool with given arguments:
// `call TOOL {json arguments}`.
const callVerb = "call"

// parseCall recognises `call TOOL {json arguments}` (the verb in any case,
// the JSON optional: no arguments), so that every tool can be rehearsed and
// tested offline. ok is false for a prompt of another kind; a call whose
// arguments are not a JSON object comes back with its problem set.
func parseCall(prompt string) (cmd command, ok bool) {
	p := strings.TrimSpace(prompt)
	if len(p) <= len(callVerb) || !strings.EqualFold(p[:len(callVerb)], callVerb) || !unicode.IsSpace(rune(p[len(callVerb)])) {
		return command{}, false
	}
	rest := strings.TrimSpace(p[len(callVerb):])
	name, argText := rest, ""
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		name, argText = rest[:i], strings.TrimSpace(rest[i:])
	}
	args := map[string]any{}
	if argText != "" {
		if err := json.Unmarshal([]byte(argText), &args); err != nil || args == nil {
			cmd.tool = name
			cmd.problem = fmt.Sprintf("I cannot call `%s`: its arguments must be one JSON object, as in "+
				"`call %s {\"path\": \"README.md\"}`, and `%s` is not (%s).", name, name, oneLine(argText, 80), jsonProblem(err))
			return cmd, true
		}
	}
	cmd = command{tool: name, args: []map[string]any{args}}
	shown, _ := json.Marshal(args)
	cmd.intro = fmt.Sprintf("Calling `%s` with `%s`.", name, oneLine(string(shown), 120))
	return cmd, true
}

// jsonProblem words why arguments did not decode.
func jsonProblem(err error) string {
	if err == nil {
		return "it is null"
	}
	return err.Error()
}
