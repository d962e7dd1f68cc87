package headless

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/steer-tui/steer/agent/runner"
)

const mcpUsage = `Usage: steer mcp list [--json]
       steer mcp tools NAME [--json]
       steer mcp login NAME

list starts and connects each configured MCP server (steer's config's
mcpServers, then the workspace's .mcp.json when it is trusted), each bounded by
its timeoutSeconds, and reports its state at that moment: name, transport,
state (starting, ready, failed, needs login, untrusted, disabled), its tool,
prompt and resource counts, its last error and its restarts. A workspace file
that is not trusted is named with the line that trusts it.

tools lists one server's tools as the model sees them (mcp__NAME__TOOL), with
whether the server marks them read-only (they run unasked in ask mode) and
whether the server's tools filter lets them through.

login signs in to an HTTP server that needs OAuth: the browser ($BROWSER, else
xdg-open or open) opens the server's authorization page and returns to a
listener on 127.0.0.1; the token is kept in the state directory (mode 0600)
and refreshed without asking.

Flags:
  --json             print JSON instead of a table
  --trust-project    start the workspace's .mcp.json servers for this run
`

// checkMCP accepts `steer mcp list` and `steer mcp tools NAME`.
func checkMCP(args []string) error {
	switch {
	case len(args) == 1 && args[0] == "list":
	case len(args) == 2 && (args[0] == "tools" || args[0] == "login"):
	default:
		return usagef("usage: steer mcp list [--json] | steer mcp tools NAME [--json] | steer mcp login NAME")
	}
	return nil
}

// MCPOptions are the arguments of `steer mcp …`: Args as ParseArgs checked
// them.
type MCPOptions struct {
	Args []string
	JSON bool
}

// MCP is `steer mcp list` and `steer mcp tools NAME`, over servers already
// started: it waits for them to settle, then reports.
func MCP(ctx context.Context, servers runner.MCPServers, o MCPOptions, stdout, stderr io.Writer) int {
	if err := servers.Settled(ctx); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitCancelled
	}
	if o.Args[0] == "tools" {
		return mcpTools(servers, o, stdout, stderr)
	}
	list := servers.MCPServers()
	project, hasProject := servers.MCPProject()
	if o.JSON {
		out := struct {
			Servers []runner.MCPServer `json:"servers"`
			Project *runner.MCPProject `json:"project,omitempty"`
		}{Servers: list}
		if hasProject {
			out.Project = &project
		}
		if out.Servers == nil {
			out.Servers = []runner.MCPServer{}
		}
		return writeJSON(stdout, stderr, out)
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "no MCP servers are configured (mcpServers in the config, or a .mcp.json here)")
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	if len(list) > 0 {
		fmt.Fprintln(w, "NAME\tTRANSPORT\tSOURCE\tSTATE\tTOOLS\tPROMPTS\tRESOURCES\tRESTARTS\tERROR")
	}
	for _, s := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", s.Name, s.Transport, s.Source, s.State, s.Tools, s.Prompts,
			s.Resources, s.Restarts, s.Error)
	}
	w.Flush()
	for _, s := range list {
		if s.State == "failed" && len(s.Stderr) > 0 {
			fmt.Fprintf(stdout, "\n%s's last stderr lines:\n  %s\n", s.Name, strings.Join(s.Stderr, "\n  "))
		}
	}
	if hasProject && !project.Trusted {
		fmt.Fprintf(stdout, "\n%s is not trusted, so its servers were not started. It would run:\n  %s\n", project.Path,
			strings.Join(project.Commands, "\n  "))
		fmt.Fprintf(stdout, "Trust the workspace with 'steer trust' (until a file changes), for one run with --trust-project,\n"+
			"or this file alone in the config: \"mcpTrustedProjects\": [{\"path\": %q, \"sha256\": %q}]\n", project.Path, project.Hash)
	}
	return ExitOK
}

func mcpTools(servers runner.MCPServers, o MCPOptions, stdout, stderr io.Writer) int {
	tools, err := servers.MCPServerTools(o.Args[1])
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitFailed
	}
	if o.JSON {
		if tools == nil {
			tools = []runner.MCPTool{}
		}
		return writeJSON(stdout, stderr, tools)
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tREAD-ONLY\tALLOWED\tDESCRIPTION")
	for _, t := range tools {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", t.Name, yesNo(t.ReadOnly), yesNo(t.Allowed), firstLine(t.Description))
	}
	w.Flush()
	return ExitOK
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
