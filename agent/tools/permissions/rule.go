package permissions

import "strings"

// Kind is a rule list: allow, ask or deny.
type Kind string

// The rule lists.
const (
	Allow Kind = "allow"
	Ask   Kind = "ask"
	Deny  Kind = "deny"
)

// Rule is one permission rule as written in config. Rules are comparable
// values: two rules parsed from the same text and kind are equal (with equal
// Source).
type Rule struct {
	// Text is the rule as written: "Bash(npm run test:*)".
	Text string
	// Kind is the list the rule is in.
	Kind Kind
	// Source is the file the rule came from (set by the caller; shown in
	// /permissions).
	Source string

	// family says which tools the rule covers (a key of families, or
	// familyMCP).
	family string
	// spec is the text between the parentheses, "" for the whole tool.
	// For bash it has runs of blanks collapsed and ":*" removed when
	// prefix is set; for fetch it is the lowercased host pattern; for mcp
	// it is the tool name or the server's prefix ("mcp__srv__").
	spec string
	// exact is a Bash spec as written (trimmed), which a whole command must
	// equal byte for byte for the rule to cover it whole.
	exact string
	// prefix: a Bash spec written "X:*", or an mcp rule naming a server.
	prefix bool
}

// The steer tool names the rules know.
const (
	toolBash  = "bash"
	toolRead  = "read"
	toolWrite = "write"
	toolEdit  = "edit"
	toolLs    = "ls"
	toolFind  = "find"
	toolGrep  = "grep"
	toolFetch = "fetch"
	toolTask  = "task"
)

// mcpPrefix starts every MCP tool's name: mcp__server__tool.
const mcpPrefix = "mcp__"

// familyMCP marks an mcp rule, whose spec holds the tool or server name.
const familyMCP = "mcp"

// specKind is what a family's spec describes.
type specKind int

const (
	specNone    specKind = iota // the tool takes no spec: only the whole tool
	specCommand                 // a bash command pattern
	specPath                    // a gitignore-style path pattern
	specDomain                  // domain:host
)

// family is one rule tool name: the steer tools it covers and what its spec
// describes.
type family struct {
	tools []string
	spec  specKind
}

// families maps every tool name a rule may use to what it covers: Claude
// Code's names first (Read reaches the read-only file tools as in Claude
// Code, Edit every tool that changes a file), then steer's, each covering
// only itself.
var families = map[string]family{
	"Bash":      {[]string{toolBash}, specCommand},
	"Read":      {[]string{toolRead, toolLs, toolFind, toolGrep}, specPath},
	"Edit":      {[]string{toolEdit, toolWrite}, specPath},
	"MultiEdit": {[]string{toolEdit}, specPath},
	"Write":     {[]string{toolWrite}, specPath},
	"Glob":      {[]string{toolFind}, specPath},
	"Grep":      {[]string{toolGrep}, specPath},
	"LS":        {[]string{toolLs}, specPath},
	"WebFetch":  {[]string{toolFetch}, specDomain},
	"Task":      {[]string{toolTask}, specNone},
	toolBash:    {[]string{toolBash}, specCommand},
	toolRead:    {[]string{toolRead}, specPath},
	toolWrite:   {[]string{toolWrite}, specPath},
	toolEdit:    {[]string{toolEdit}, specPath},
	toolLs:      {[]string{toolLs}, specPath},
	toolFind:    {[]string{toolFind}, specPath},
	toolGrep:    {[]string{toolGrep}, specPath},
	toolFetch:   {[]string{toolFetch}, specDomain},
	toolTask:    {[]string{toolTask}, specNone},
}

// covers reports whether r applies to calls of tool at all, before its spec
// is looked at.
func (r Rule) covers(tool string) bool {
	if r.family == familyMCP {
		if r.prefix {
			return strings.HasPrefix(tool, r.spec)
		}
		return tool == r.spec
	}
	for _, t := range families[r.family].tools {
		if t == tool {
			return true
		}
	}
	return false
}

// whole reports whether r covers every call of the tools it names.
func (r Rule) whole() bool { return r.spec == "" || r.family == familyMCP }

// isFileTool reports whether tool's calls are judged by their paths.
func isFileTool(tool string) bool {
	switch tool {
	case toolRead, toolWrite, toolEdit, toolLs, toolFind, toolGrep:
		return true
	}
	return false
}

// writesFiles reports whether tool's calls change the files they name.
func writesFiles(tool string) bool { return tool == toolWrite || tool == toolEdit }
