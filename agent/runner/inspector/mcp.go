package inspector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// MCP is the MCP servers inspector: /mcp, rpc `inspect {what:"mcp"}`,
// `steer inspect mcp` (which starts the configured servers, as `steer mcp
// list` does, and reports them once each is ready or failed).
var MCP = New(Def[[]runner.MCPServer]{
	Name:    "mcp",
	Summary: "MCP servers: state, tools, errors",
	Usage:   "the MCP servers, started and connected as a session would, each once ready or failed",
	Help: `every configured MCP server (the config's mcpServers and the
workspace's .mcp.json) with its transport, where it is configured, its state
(starting, ready, failed, needs login, untrusted, disabled), its tool,
prompt and resource counts, its last error, its restarts, a failed stdio
server's last stderr lines and how to log in. It starts each server, bounded
by its timeout, like 'steer mcp list'. --json prints {servers: [{name,
transport, source, state, tools, prompts, resources, error, stderr,
restarts, loginHint}]}.`,
	Read: func(_ context.Context, src Source, _ Query) ([]runner.MCPServer, error) {
		return src.MCPServers(), nil
	},
	ReadSaved: func(ctx context.Context, s Saved) ([]runner.MCPServer, error) {
		if s.MCP == nil {
			return nil, errors.New("the MCP servers cannot be started here")
		}
		return s.MCP(ctx)
	},
	JSON: func(v []runner.MCPServer) any {
		if v == nil {
			v = []runner.MCPServer{}
		}
		return struct {
			Servers []runner.MCPServer `json:"servers"`
		}{v}
	},
	Print: printMCP,
	Table: func(v []runner.MCPServer, _ Frame) Table { return mcpTable(v) },
})

// printMCP prints the servers as `steer mcp list` does, with each failed
// server's last stderr lines after the table.
func printMCP(w io.Writer, v []runner.MCPServer, _ time.Time) {
	if len(v) == 0 {
		fmt.Fprintln(w, "No MCP servers are configured (mcpServers in the config, or a .mcp.json here).")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tTRANSPORT\tSOURCE\tSTATE\tTOOLS\tPROMPTS\tRESOURCES\tRESTARTS\tERROR")
	for _, s := range v {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", s.Name, s.Transport, s.Source, s.State, s.Tools, s.Prompts,
			s.Resources, s.Restarts, orDash(oneLine(s.Error, 80)))
	}
	tw.Flush()
	for _, s := range v {
		if len(s.Stderr) > 0 {
			fmt.Fprintf(w, "\n%s's last stderr lines:\n  %s\n", s.Name, strings.Join(s.Stderr, "\n  "))
		}
		if s.LoginHint != "" {
			fmt.Fprintf(w, "\n%s needs a login: %s\n", s.Name, s.LoginHint)
		}
	}
}

// mcpTable is every MCP server, in configuration order: a failed server's
// details are its error and last stderr lines, one that needs a login says
// how. r restarts the selected server; l signs in to a remote one.
func mcpTable(v []runner.MCPServer) Table {
	t := Table{
		Title: "MCP servers",
		Columns: []Column{{Title: "SERVER", Max: 24}, {Title: "TRANSPORT", Drop: 2}, {Title: "STATE", Max: 12},
			{Title: "TOOLS"}, {Title: "PROMPTS", Drop: 3}, {Title: "RESOURCES", Drop: 4}, {Title: "RESTARTS", Drop: 1},
			{Title: "ERROR", Max: 40}},
		Empty: "no MCP servers are configured (mcpServers in the config, or a .mcp.json here)",
	}
	counts := map[runner.MCPState]int{}
	for _, s := range v {
		counts[s.State]++
		row := Row{Key: s.Name, Cells: []Cell{text(s.Name), text(string(s.Transport)), mcpState(s.State),
			text(fmt.Sprint(s.Tools)), text(fmt.Sprint(s.Prompts)), text(fmt.Sprint(s.Resources)),
			text(fmt.Sprint(s.Restarts)), {Text: oneLine(s.Error, 80), Tone: ToneBad}}}
		row.Detail = append(row.Detail, fmt.Sprintf("%s server from the %s: %s, %s, %s; %s", s.Transport, mcpSource(s.Source),
			plural(s.Tools, "tool"), plural(s.Prompts, "prompt"), plural(s.Resources, "resource"), plural(s.Restarts, "restart")))
		if s.Error != "" {
			row.Detail = append(row.Detail, "error: "+s.Error)
		}
		for _, l := range s.Stderr {
			row.Detail = append(row.Detail, "stderr: "+l)
		}
		switch s.State {
		case runner.MCPUntrusted:
			row.Detail = append(row.Detail, "not started: the workspace is not trusted (steer asks at start-up; steer trust)")
		case runner.MCPDisabled:
			row.Detail = append(row.Detail, `not started: "enabled": false in its configuration`)
		default:
			row.Server = &Server{Name: s.Name, CanLogin: s.Transport != runner.MCPStdio}
		}
		if s.LoginHint != "" {
			row.Detail = append(row.Detail, "needs a login: l here, or "+s.LoginHint)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Summary = stateSummary(len(v), "server", counts, []runner.MCPState{runner.MCPReady, runner.MCPStarting, runner.MCPFailed, runner.MCPNeedsLogin,
		runner.MCPUntrusted, runner.MCPDisabled})
	return t
}

// mcpState is a server's state cell, toned by what it means for its tools.
func mcpState(s runner.MCPState) Cell {
	switch s {
	case runner.MCPReady:
		return Cell{Text: string(s), Tone: ToneOK}
	case runner.MCPFailed:
		return Cell{Text: string(s), Tone: ToneBad}
	case runner.MCPStarting, runner.MCPNeedsLogin, runner.MCPUntrusted:
		return Cell{Text: string(s), Tone: ToneWarn}
	}
	return text(string(s))
}

// mcpSource says where a server is configured.
func mcpSource(s runner.MCPSource) string {
	if s == runner.MCPFromProject {
		return "workspace's .mcp.json"
	}
	return "config"
}
