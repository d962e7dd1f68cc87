package headless

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
)

const configUsage = `Usage: steer config [--json] [--config FILE]

Prints the configuration steer would start with here, each value with the
file it came from. The files are layers, lowest first:

  global    $XDG_CONFIG_HOME/steer/config.json (~/.config/steer/config.json)
  project   .steer/config.json in this directory or its nearest ancestor;
            applied only once the workspace is trusted ('steer help trust')
  --config  FILE, laid over the other two (it no longer replaces the global)

then the flags (--model, --approve, --timeout, …), which win where they apply.
Objects merge key by key; anything else, lists too, is replaced whole by the
higher layer. Secrets (API keys, header and env values, OAuth client secrets)
show as (set) or (unset). A mistake in any file, trusted or not, is named by
file and line, and steer does not start until it is fixed.

--json prints {"layers": [{kind, path, applied, note?, keys}],
"settings": [{path, value, secret?, source, sources}]}: source is the file
whose value is in effect, sources every applied file that sets it.
`

const trustUsage = `Usage: steer trust [PATH] [--revoke] [--json]

A workspace (PATH, default this directory) can bring what runs code or changes
steer's behaviour: a project config (.steer/config.json here or in an ancestor:
hooks, MCP servers, permissions, …) and a .mcp.json of MCP servers. None of it
takes effect until the workspace is trusted: 'steer trust' shows what it brings
and records the trust in the state directory, with the hash of each file; a
change to any of them revokes it, and steer asks again (the terminal UI asks in
a dialog; steer run and steer rpc say on stderr what was not applied).
--trust-project trusts the workspace for one run without recording it.
--revoke forgets the trust. Context files and prompt templates are text and
load without trust.
`

// checkConfigTrust checks the arguments of 'steer config' and 'steer
// trust'.
func checkConfigTrust(o Args) error {
	switch {
	case o.Command == "config" && len(o.Args) > 0:
		return usagef("usage: steer config [--json] [--config FILE]")
	case o.Command == "trust" && len(o.Args) > 1:
		return usagef("usage: steer trust [PATH] [--revoke] [--json]")
	}
	return nil
}

// ConfigReport is what 'steer config' prints.
type ConfigReport struct {
	Layers   []config.Layer   `json:"layers"`
	Settings []config.Setting `json:"settings"`
}

// Config prints the report, as a table or (asJSON) as one JSON object.
func Config(r ConfigReport, asJSON bool, stdout io.Writer) error {
	if r.Layers == nil {
		r.Layers = []config.Layer{}
	}
	if r.Settings == nil {
		r.Settings = []config.Setting{}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Layers, lowest first:")
	if len(r.Layers) == 0 {
		fmt.Fprintln(tw, "  none: the environment alone configures steer")
	}
	for _, l := range r.Layers {
		state := "applied"
		if !l.Applied {
			state = l.Note
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", l.Kind, l.Path, state)
	}
	if len(r.Settings) > 0 {
		fmt.Fprintln(tw, "\nSettings:")
	}
	for _, s := range r.Settings {
		from := s.Source
		if len(s.Sources) > 1 {
			from += " (over " + strings.Join(s.Sources[:len(s.Sources)-1], ", ") + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Path, s.ValueText(), from)
	}
	return tw.Flush()
}

// Trust prints what a workspace brings and how it stands ('steer trust'):
// done says what was just done ("trusted", "revoked", …).
func Trust(w runner.WorkspaceTrust, done string, asJSON bool, stdout io.Writer) error {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			runner.WorkspaceTrust
			Done string `json:"done"`
		}{w, done})
	}
	fmt.Fprintln(stdout, w.Summary())
	_, err := fmt.Fprintln(stdout, done)
	return err
}
