package scripted

import (
	"fmt"
	"strings"
	"unicode"
)

// Sub-agents (SPEC §7): a prompt of `delegate <task>` lines hands each task
// to the runner's task tool, all in one response so that the children run
// in parallel; their answers come back later as steering.

const (
	// delegateVerb starts each line of a delegating prompt.
	delegateVerb = "delegate"
	// taskTool is the runner's sub-agent tool and taskArg its one argument,
	// the child's prompt.
	taskTool = "task"
	taskArg  = "task"
)

// parseDelegate recognises a prompt whose every non-blank line is
// `delegate <task>` (the verb in any case) and returns one task call per
// line, in order, each with exactly the line's task as the child's prompt.
// ok is false for a prompt of another kind.
func parseDelegate(prompt string) (cmd command, ok bool) {
	var tasks []string
	for _, line := range strings.Split(prompt, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		task, ok := delegateTask(line)
		if !ok {
			return command{}, false
		}
		tasks = append(tasks, task)
	}
	if len(tasks) == 0 {
		return command{}, false
	}
	cmd = command{tool: taskTool}
	for _, task := range tasks {
		cmd.args = append(cmd.args, map[string]any{taskArg: task})
	}
	if len(tasks) == 1 {
		cmd.intro = fmt.Sprintf("Delegating `%s` to a sub-agent.", oneLine(tasks[0], 80))
	} else {
		cmd.intro = fmt.Sprintf("Delegating %d tasks to sub-agents that work in parallel.", len(tasks))
	}
	return cmd, true
}

// delegateTask is the task of one trimmed `delegate <task>` line.
func delegateTask(line string) (string, bool) {
	n := len(delegateVerb)
	if len(line) <= n || !strings.EqualFold(line[:n], delegateVerb) || !unicode.IsSpace(rune(line[n])) {
		return "", false
	}
	task := strings.TrimSpace(line[n:])
	return task, task != ""
}
