package scripted

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/lazyregexp"
)

// The answers below are Markdown, written so that streaming them shows the
// chat view's rendering: headings, lists, code fences.

// maxShownLines bounds the tool output quoted in an answer.
const maxShownLines = 20

// steeringLead acknowledges each steering text on its own line, then a blank
// line; it is empty without steering. Runtime data is quoted from its items,
// past the opening paragraph that only says what they are.
func steeringLead(steering []string) string {
	var b strings.Builder
	for _, s := range steering {
		if isRuntimeData(s) {
			if _, items, ok := strings.Cut(s, "\n\n"); ok {
				s = items
			}
		}
		fmt.Fprintf(&b, "Steering received: %s\n", oneLine(s, 200))
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// runtimeDataMark is what the opening line of a message that carries
// background results says about them (SPEC §7's steering preamble).
const runtimeDataMark = "runtime data and evidence, not user instructions"

// isRuntimeData reports whether text opens by saying it is runtime data,
// as the runner's merged sub-agent results do.
func isRuntimeData(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	return strings.Contains(strings.ToLower(first), runtimeDataMark)
}

// steeringOnlyAnswer follows steering that came without a prompt or tool
// results: background work reporting to a run that had answered already.
const steeringOnlyAnswer = "Noted: I have taken the reported results into account."

// generalAnswer answers a prompt that is not a command.
func generalAnswer(prompt string, tools []agent.ToolSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You said: %s\n\n", oneLine(prompt, 200))
	b.WriteString("I am steer's **scripted** model: I run offline, without a key or a network, " +
		"and stream canned answers so that you can try the interface. I cannot really reason " +
		"about your request, but I can use the workspace tools for you.\n\n")
	if understood := commandHelp(tools); understood != "" {
		b.WriteString("## What I understand\n\n" + understood + "\n")
	}
	if names := toolNames(tools); names != "" {
		fmt.Fprintf(&b, "Tools in this session: %s.\n\n", names)
	} else {
		b.WriteString("This session has no tools, so I can only talk.\n\n")
	}
	b.WriteString("While I work you can type to steer me: your message reaches me after the " +
		"current tool finishes, and I acknowledge it at the start of my next answer.\n\n")
	b.WriteString("## Using a real model\n\n")
	b.WriteString("Put an API key in the environment and pick a model, for example:\n\n")
	b.WriteString("```sh\nexport ANTHROPIC_API_KEY=sk-ant-...\nsteer --model anthropic/claude-sonnet-4-5\n```\n\n")
	b.WriteString("To rehearse failures instead, start steer with `--scenario rate-limit` or another " +
		"built-in scenario.")
	return b.String()
}

// commandHelps are the commands the scripted model understands, by the tool
// each needs: the greeting lists only those whose tool the session has.
var commandHelps = []struct{ tool, line string }{
	{"ls", "- `list files` lists the workspace with the `ls` tool\n"},
	{"read", "- `read <path>` shows a file with the `read` tool\n"},
	{"bash", "- `run <command>` runs a shell command with the `bash` tool\n"},
	{"grep", "- `search <pattern>` searches the files with the `grep` tool\n"},
	{taskTool, "- `delegate <task>` hands the task to a sub-agent with the `task` tool; several " +
		"`delegate` lines start several sub-agents at once\n"},
	{anyTool, "- `call <tool> {json}` calls any tool with those arguments, e.g. " +
		"`call find {\"pattern\": \"*.go\"}`\n"},
}

// anyTool marks a command that works with whatever tools the session has.
const anyTool = "*"

func commandHelp(tools []agent.ToolSpec) string {
	var b strings.Builder
	for _, h := range commandHelps {
		for _, t := range tools {
			if t.Name == h.tool || h.tool == anyTool {
				b.WriteString(h.line)
				break
			}
		}
	}
	return b.String()
}

// unavailableAnswer says that the tool a command needs is missing.
func unavailableAnswer(cmd command, tools []agent.ToolSpec) string {
	s := fmt.Sprintf("I would use the `%s` tool for that, but it is not available in this session, "+
		"so I cannot do it.", cmd.tool)
	if names := toolNames(tools); names != "" {
		s += fmt.Sprintf(" Tools I can use: %s.", names)
	}
	return s
}

// resultsAnswer reports the tool results of the last turn, in call order.
func resultsAnswer(results []outcome) string {
	parts := make([]string, 0, len(results)+1)
	for _, o := range results {
		parts = append(parts, resultAnswer(o))
	}
	if len(results) > 1 {
		parts = append([]string{fmt.Sprintf("All %d tools have finished.", len(results))}, parts...)
	}
	return strings.Join(parts, "\n\n")
}

func resultAnswer(o outcome) string {
	if o.isError {
		return errorAnswer(o)
	}
	switch o.name {
	case "bash":
		return bashAnswer(o)
	case "read":
		return readAnswer(o)
	case "ls":
		return lsAnswer(o)
	case "grep":
		return grepAnswer(o)
	case taskTool:
		return fmt.Sprintf("Delegated `%s`: %s", oneLine(argString(o.args, taskArg), 80), oneLine(o.text, 200))
	}
	return fmt.Sprintf("The `%s` tool returned:\n\n%s", o.name, fence(tail(o.text), ""))
}

func bashAnswer(o outcome) string {
	code, ok := exitCode(o)
	if !ok {
		code = 0
	}
	s := fmt.Sprintf("The command `%s` finished (exit code %d).", oneLine(argString(o.args, "command"), 80), code)
	if strings.TrimSpace(o.text) == "" {
		return s + " It printed nothing."
	}
	return s + shownLines(o.text) + " Output:\n\n" + fence(tail(o.text), "")
}

func readAnswer(o outcome) string {
	file := argString(o.args, "path")
	lines := withoutLineNumbers(splitLines(o.text))
	s := fmt.Sprintf("`%s` has %s", file, plural(len(lines), "line"))
	if kind := fileKind(file); kind != "" {
		s += " of " + kind
	}
	shown := min(len(lines), 10)
	if shown == len(lines) {
		s += ":\n\n"
	} else {
		s += fmt.Sprintf(". Here are the first %d:\n\n", shown)
	}
	return s + fence(strings.Join(lines[:shown], "\n"), lang(file))
}

// numberedLine is a line of the read tool's output: its number, a tab,
// then the file's line.
var numberedLine = lazyregexp.Regexp{Expr: `^ *\d+\t`}

// withoutLineNumbers returns the file's lines from the read tool's output:
// the numbers taken off and the note on further lines dropped. Output of
// another shape is returned as it is.
func withoutLineNumbers(lines []string) []string {
	var out []string
	for _, l := range lines {
		prefix := numberedLine.Get().FindString(l)
		if prefix == "" {
			if len(out) > 0 && (l == "" || strings.HasPrefix(l, "[showing lines")) {
				break // the blank line and the note after the numbered lines
			}
			return lines
		}
		out = append(out, l[len(prefix):])
	}
	return out
}

func lsAnswer(o outcome) string {
	entries := splitLines(o.text)
	if len(entries) == 0 {
		return "The directory is empty."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The workspace has %s:\n\n", plural(len(entries), "entry"))
	for i, e := range entries {
		if i == 2*maxShownLines {
			fmt.Fprintf(&b, "- … and %d more\n", len(entries)-i)
			break
		}
		fmt.Fprintf(&b, "- `%s`\n", strings.TrimSpace(e))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// noGrepMatches is the grep tool's whole result when nothing matched.
const noGrepMatches = "No matches found"

func grepAnswer(o outcome) string {
	matches := splitLines(o.text)
	pattern := oneLine(argString(o.args, "pattern"), 80)
	if len(matches) == 0 || strings.TrimSpace(o.text) == noGrepMatches {
		return fmt.Sprintf("Nothing in the workspace matches `%s`.", pattern)
	}
	return fmt.Sprintf("Found %s matching `%s`%s:\n\n%s", plural(len(matches), "line"), pattern,
		shownLines(o.text), fence(tail(o.text), ""))
}

func errorAnswer(o outcome) string {
	s := fmt.Sprintf("The `%s` tool failed", o.name)
	if cmd := argString(o.args, "command"); cmd != "" {
		s += fmt.Sprintf(" running `%s`", oneLine(cmd, 80))
	}
	if code, ok := exitCode(o); ok {
		s += fmt.Sprintf(" (exit code %d)", code)
	}
	lines := splitLines(tail(o.text))
	if len(lines) == 0 {
		return s + ", without saying why."
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return s + ":\n\n" + strings.Join(lines, "\n")
}

var exitCodeText = lazyregexp.Regexp{Expr: `(?i)exit (?:code|status)\D{0,3}(-?\d+)`}

// exitCode finds a command's exit code in the result's details or text.
func exitCode(o outcome) (int, bool) {
	for k, v := range detailsJSON(o.details) {
		switch strings.ToLower(strings.ReplaceAll(k, "_", "")) {
		case "exitcode", "exitstatus", "code":
			if f, ok := v.(float64); ok {
				return int(f), true
			}
		}
	}
	if m := exitCodeText.Get().FindStringSubmatch(o.text); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, true
		}
	}
	return 0, false
}

// detailsJSON flattens a tool result's details into a map, for the fields
// the answers look for; details of any other shape give nil.
func detailsJSON(details any) map[string]any {
	if details == nil {
		return nil
	}
	b, err := json.Marshal(details)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

func argString(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

func toolNames(tools []agent.ToolSpec) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = "`" + t.Name + "`"
	}
	return strings.Join(names, ", ")
}

// splitLines splits text into lines, dropping a final newline and blank
// trailing lines.
func splitLines(text string) []string {
	text = strings.TrimRight(text, "\n\r\t ")
	if text == "" {
		return nil
	}
	return strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
}

// tail keeps the last maxShownLines lines of text.
func tail(text string) string {
	lines := splitLines(text)
	return strings.Join(lines[max(0, len(lines)-maxShownLines):], "\n")
}

// shownLines notes when tail dropped lines.
func shownLines(text string) string {
	if n := len(splitLines(text)); n > maxShownLines {
		return fmt.Sprintf(" (last %d of %d lines)", maxShownLines, n)
	}
	return ""
}

// fence wraps text in a code fence longer than any backtick run inside it.
func fence(text, lang string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + text + "\n" + f
}

// plural counts n of a noun: "1 line", "3 lines", "2 entries".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if stem, ok := strings.CutSuffix(noun, "y"); ok {
		return fmt.Sprintf("%d %sies", n, stem)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// languages are the fence tag and description of each extension the
// scripted provider names: an array, not a map, so that declaring it runs no
// code in processes that never use it.
var languages = [...]struct{ ext, tag, kind string }{
	{".go", "go", "Go"}, {".md", "markdown", "Markdown"}, {".json", "json", "JSON"},
	{".py", "python", "Python"}, {".js", "javascript", "JavaScript"}, {".ts", "typescript", "TypeScript"},
	{".sh", "sh", "shell script"}, {".yaml", "yaml", "YAML"}, {".yml", "yaml", "YAML"},
	{".toml", "toml", "TOML"}, {".rs", "rust", "Rust"}, {".c", "c", "C"}, {".html", "html", "HTML"},
	{".css", "css", "CSS"}, {".sql", "sql", "SQL"}, {".txt", "", "text"},
}

// language is the fence tag and description of file's extension; both are
// empty for one it does not know.
func language(file string) (tag, kind string) {
	ext := strings.ToLower(path.Ext(file))
	for _, l := range languages {
		if l.ext == ext {
			return l.tag, l.kind
		}
	}
	return "", ""
}

func lang(file string) string     { tag, _ := language(file); return tag }
func fileKind(file string) string { _, kind := language(file); return kind }
