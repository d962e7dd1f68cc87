package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
)

// EditDetails describe what an edit call changed, for the UI.
type EditDetails struct {
	// Path is the file edited, resolved.
	Path string `json:"path"`
	// Diff is the unified diff of the change.
	Diff string `json:"diff"`
	// FirstChangedLine is the line of the first change in the new file.
	FirstChangedLine int `json:"firstChangedLine"`
}

type editTool struct {
	ws workspace
	d  Diagnoser // WithDiagnostics
}

// Edit returns the edit tool, which replaces exact, unique pieces of text in
// a file of the workspace, all or nothing.
func Edit(workspace string, opts ...Option) agent.Tool {
	return editTool{ws: newWorkspace(workspace), d: optionsOf(opts).diagnoser}
}

var editSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "Path to the file to edit (relative to the workspace or absolute)."},
		"edits": {
			"type": "array",
			"minItems": 1,
			"description": "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
			"items": {
				"type": "object",
				"properties": {
					"oldText": {"type": "string", "minLength": 1, "description": "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call."},
					"newText": {"type": "string", "description": "Replacement text for this targeted edit."}
				},
				"required": ["oldText", "newText"],
				"additionalProperties": false
			}
		}
	},
	"required": ["path", "edits"],
	"additionalProperties": false
}`)

func (editTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "edit",
		Description: "Edit a file by replacing exact text. Each edits[].oldText must match exactly one place in the " +
			"original file, including whitespace and indentation (without read's line-number prefixes); keep it as " +
			"small as possible while unique. All edits apply together or not at all: when one does not match, " +
			"nothing is written and the error shows the closest lines of the file. Use write to replace a whole file.",
		Parameters: editSchema,
	}
}

// replacement is one edits[] entry.
type replacement struct{ oldText, newText string }

// replacements reads the edits argument; entries of the wrong shape come
// back empty and fail as such.
func replacements(args map[string]any) []replacement {
	var out []replacement
	add := func(m map[string]any) {
		out = append(out, replacement{oldText: stringArg(m, "oldText"), newText: stringArg(m, "newText")})
	}
	switch v := args["edits"].(type) {
	case []any:
		for _, e := range v {
			m, _ := e.(map[string]any)
			add(m)
		}
	case []map[string]any:
		for _, m := range v {
			add(m)
		}
	}
	return out
}

// Describe reports the file the call edits, with the diff it would make.
func (t editTool) Describe(args map[string]any) Access {
	p := stringArg(args, "path")
	edits := replacements(args)
	a := t.ws.access(p, true, fmt.Sprintf("edit %s (%d %s)", clip(p, summaryLen), len(edits), pluralWord(len(edits), "replacement")))
	tg, err := t.ws.locate(p)
	if err != nil {
		return a
	}
	f, err := loadText(tg.path)
	if err != nil {
		return a
	}
	if next, _, problems := applyEdits(f.text, edits); len(problems) == 0 {
		a.Diff = unifiedDiff(t.ws, tg.path, f.text, next)
	} else {
		a.Summary += " — the edits do not apply as given; nothing will be written"
	}
	return a
}

func (t editTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	target, refused := t.ws.confine(ctx, stringArg(args, "path"))
	if refused != nil {
		return *refused, nil
	}
	path := target.path
	f, err := loadText(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return agent.ErrorResult(fmt.Sprintf("file not found: %s (use write to create a file)", path)), nil
	case err != nil:
		return agent.ErrorResult(fmt.Sprintf("cannot edit %s: %v", path, err)), nil
	}
	edits := replacements(args)
	next, first, problems := applyEdits(f.text, edits)
	if len(problems) > 0 {
		// Many failing edits each quote lines: the message stays bounded.
		return agent.ErrorResult(contextguard.TruncateToolResult(fmt.Sprintf("edit failed; nothing was written to %s:\n%s",
			path, strings.Join(problems, "\n")), maxBytes)), nil
	}
	written := f.encode(next)
	if err := writeAtomic(path, written, f.mode); err != nil {
		return agent.ErrorResult(fmt.Sprintf("cannot write %s: %v", path, err)), nil
	}
	return agent.ToolResult{
		Content: []agent.Content{agent.Text(withDiagnostics(ctx, t.d, path, string(written),
			fmt.Sprintf("Edited %s: %d %s applied, first change at line %d",
				path, len(edits), pluralWord(len(edits), "replacement"), first)))},
		Details: EditDetails{Path: path, Diff: unifiedDiff(t.ws, path, f.text, next), FirstChangedLine: first},
	}, nil
}

// span is where one replacement's old text sits in the original.
type span struct {
	edit       int // index in edits[]
	start, end int // byte offsets
}

// applyEdits replaces each edit's old text, which must occur exactly once
// in text, all measured against text itself; overlapping edits and edits
// that change nothing are refused. It returns the new text and the line of
// its first change, or the problems, one line (or block) each, that kept
// it from applying.
func applyEdits(text string, edits []replacement) (string, int, []string) {
	var problems []string
	var spans []span
	if len(edits) == 0 {
		return "", 0, []string{"- no edits were given"}
	}
	for i, e := range edits {
		old := toLF(e.oldText)
		if old == "" {
			problems = append(problems, fmt.Sprintf("- edits[%d].oldText is empty", i))
			continue
		}
		at := occurrences(text, old)
		switch {
		case len(at) == 0:
			problems = append(problems, fmt.Sprintf("- edits[%d].oldText was not found. %s", i, nearMiss(text, old)))
		case len(at) > 1:
			problems = append(problems, fmt.Sprintf("- edits[%d].oldText matches %s times (%s); "+
				"include more of the surrounding lines to make it unique", i, timesOf(at), linesOf(text, at)))
		default:
			spans = append(spans, span{edit: i, start: at[0], end: at[0] + len(old)})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	for k := 1; k < len(spans); k++ {
		if a, b := spans[k-1], spans[k]; b.start < a.end {
			problems = append(problems, fmt.Sprintf("- edits[%d] and edits[%d] overlap (line %d); merge them into one edit",
				a.edit, b.edit, lineAt(text, b.start)))
		}
	}
	if len(problems) > 0 {
		return "", 0, problems
	}
	var b strings.Builder
	prev := 0
	first := 0
	for _, s := range spans {
		b.WriteString(text[prev:s.start])
		if first == 0 && text[s.start:s.end] != toLF(edits[s.edit].newText) {
			first = strings.Count(b.String(), "\n") + 1
		}
		b.WriteString(toLF(edits[s.edit].newText))
		prev = s.end
	}
	b.WriteString(text[prev:])
	if first == 0 {
		return "", 0, []string{"- no change: every newText equals its oldText"}
	}
	return b.String(), first, nil
}

// maxListed is how many match positions a message lists.
const maxListed = 5

// occurrences returns the byte offsets where old occurs in text, overlapping
// ones included, at most maxListed+1 of them.
func occurrences(text, old string) []int {
	var at []int
	for from := 0; len(at) <= maxListed; {
		i := strings.Index(text[from:], old)
		if i < 0 {
			break
		}
		at = append(at, from+i)
		from += i + 1
	}
	return at
}

// linesOf names the lines of the offsets at: "at lines 4, 10 and more".
func linesOf(text string, at []int) string {
	var nums []string
	for _, i := range at[:min(len(at), maxListed)] {
		nums = append(nums, fmt.Sprint(lineAt(text, i)))
	}
	s := "at lines " + strings.Join(nums, ", ")
	if len(at) > maxListed {
		s += " and more"
	}
	return s
}

// timesOf says how many offsets at holds, as occurrences counted them.
func timesOf(at []int) string {
	if len(at) > maxListed {
		return fmt.Sprintf("more than %d", maxListed)
	}
	return fmt.Sprint(len(at))
}

// pluralWord is noun, with an "s" unless n is 1.
func pluralWord(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
