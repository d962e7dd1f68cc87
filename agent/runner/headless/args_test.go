package headless

import (
	"errors"
	"flag"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/tools"
)

// TestParseArgsTakesFlagsAnywhere: the global flags go before or after the
// command, among its arguments; after "--" everything is an argument.
func TestParseArgsTakesFlagsAnywhere(t *testing.T) {
	tests := []struct {
		argv []string
		want Args
	}{
		{nil, Args{Pace: 60}},
		{[]string{"--model", "scripted/echo", "run", "--json", "hello", "--timeout", "2s", "world"},
			Args{Command: "run", Args: []string{"hello", "world"}, Model: "scripted/echo", JSON: true, Timeout: 2 * time.Second, Pace: 60}},
		{[]string{"run", "--pace", "0", "--", "--json", "-h"},
			Args{Command: "run", Args: []string{"--json", "-h"}}},
		{[]string{"sessions", "show", "abc", "--json", "--state-dir", "/s"},
			Args{Command: "sessions", Args: []string{"show", "abc"}, JSON: true, StateDir: "/s", Pace: 60}},
		{[]string{"--theme", "light", "--continue"}, Args{Theme: "light", Continue: true, Pace: 60}},
		{[]string{"rpc", "--approve", "ask"}, Args{Command: "rpc", Approve: tools.ModeAsk, Pace: 60}},
		{[]string{"--approve", "never", "run", "hi"}, Args{Command: "run", Args: []string{"hi"}, Approve: tools.ModeNever, Pace: 60}},
		{[]string{"--plan", "run", "hi"}, Args{Command: "run", Args: []string{"hi"}, Approve: tools.ModePlan, Pace: 60}},
		{[]string{"--plan"}, Args{Approve: tools.ModePlan, Pace: 60}},
		{[]string{"--version", "nonsense", "--json"}, Args{Command: "nonsense", Version: true, JSON: true, Pace: 60}},
		{[]string{"run", "--profile", "openai:b", "hi"}, Args{Command: "run", Args: []string{"hi"}, Profile: "openai:b", Pace: 60}},
		{[]string{"--profile", "openai:b"}, Args{Profile: "openai:b", Pace: 60}},
		{[]string{"inspect", "profiles", "--profile", "openai:b"}, Args{Command: "inspect", Args: []string{"profiles"}, Profile: "openai:b", Pace: 60}},
	}
	for _, tt := range tests {
		got, err := ParseArgs(tt.argv, 60)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseArgs(%q) = %+v, %v; want %+v", tt.argv, got, err, tt.want)
		}
	}
}

// TestParseArgsHelp: --help and -h ask for the help of the command they
// follow.
func TestParseArgsHelp(t *testing.T) {
	for argv, command := range map[string]string{"--help": "", "run -h": "run", "sessions show --help": "sessions"} {
		got, err := ParseArgs(strings.Fields(argv), 60)
		if !errors.Is(err, flag.ErrHelp) || got.Command != command {
			t.Errorf("ParseArgs(%s) = %q, %v; want help for %q", argv, got.Command, err, command)
		}
	}
}

func TestParseArgsRefuses(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/nowhere")
	tests := []struct {
		argv string
		want string
	}{
		{"help run rpc", "usage: steer help [COMMAND]"},
		{"help nope", `no help for "nope": the commands are run, rpc, sessions, inspect, mcp, config, trust and rewind`},
		{"version x", "version takes no arguments"},
		{"run --plain hi", "--plain applies to the terminal UI only"},
		{"rpc now", `rpc takes no arguments, got "now"`},
		{"sessions show", "usage: steer sessions [--json] | steer sessions show ID [--context] [--json] | steer sessions export ID [--format html|md|jsonl] | steer sessions import FILE [--workspace DIR] [--json] | steer sessions search QUERY [--json] | steer sessions rename ID NAME"},
		{"sessions search", "usage: steer sessions [--json] | steer sessions show ID [--context] [--json] | steer sessions export ID [--format html|md|jsonl] | steer sessions import FILE [--workspace DIR] [--json] | steer sessions search QUERY [--json] | steer sessions rename ID NAME"},
		{"sessions rename s_1", "usage: steer sessions [--json] | steer sessions show ID [--context] [--json] | steer sessions export ID [--format html|md|jsonl] | steer sessions import FILE [--workspace DIR] [--json] | steer sessions search QUERY [--json] | steer sessions rename ID NAME"},
		{"sessions search x --context", "--context applies to 'steer sessions show ID' only"},
		{"sessions export x --format pdf", `--format: unknown export format "pdf" (want html, md or jsonl)`},
		{"sessions show x --format md", "--format applies to 'steer sessions export ID' only"},
		{"sessions show x --workspace /w", "--workspace applies to 'steer sessions import FILE' only"},
		{"sessions export x --json", "--json does not apply to 'steer sessions export': use --format jsonl"},
		{"sessions export x --context", "--context applies to 'steer sessions show ID' only"},
		{"frobnicate", `unknown command "frobnicate"; see 'steer help'`},
		{"sessions --context", "--context applies to 'steer sessions show ID' only"},
		{"run --context hi", "--context applies to 'steer sessions show ID' only"},
		{"rpc --json", "--json applies to 'steer run', 'steer sessions', 'steer inspect', 'steer mcp', 'steer config', 'steer trust' and 'steer rewind' only"},
		{"run --theme dark hi", "--theme applies to the terminal UI only"},
		{"--theme blue", `--theme: unknown theme "blue" (want dark, light, auto or the name of a file in /nowhere/steer/themes)`},
		{"--plan --approve ask run hi", "--plan and --approve exclude each other (--plan is --approve plan)"},
		{"--plan sessions", "--plan applies to the terminal UI, 'steer run' and 'steer rpc' only"},
		{"--approve yes", `--approve: unknown approval mode "yes" (want ask, auto, never, plan)`},
		{"--approve allow run hi", `--approve: unknown approval mode "allow" (want ask, auto, never, plan; "allow" is now "auto")`},
		{"sessions --approve ask", "--approve applies to the terminal UI, 'steer run' and 'steer rpc' only"},
		{"sessions --profile a", "--profile applies to the terminal UI, 'steer run', 'steer rpc' and 'steer inspect profiles' only"},
		{"inspect lanes --profile a", "--profile applies to the terminal UI, 'steer run', 'steer rpc' and 'steer inspect profiles' only"},
		{"--pace -1", "--pace must be 0 or more, got -1"},
		{"run --timeout -1s hi", "--timeout must be positive, got -1s"},
		{"--session abc --continue", "--session and --continue exclude each other"},
		{"inspect", "usage: steer inspect profiles|engines|lanes|runs|mcp|lsp|config|memory|hooks|permissions|context [--json] (engines: [--clear NAME], profiles: [--clear ID])"},
		{"inspect cats", `unknown inspector "cats": usage: steer inspect profiles|engines|lanes|runs|mcp|lsp|config|memory|hooks|permissions|context [--json] (engines: [--clear NAME], profiles: [--clear ID])`},
		{"inspect lanes --clear x", "--clear applies to 'steer inspect engines' and 'steer inspect profiles' only"},
		{"run --clear x hi", "--clear applies to 'steer inspect engines' and 'steer inspect profiles' only"},
		{"mcp", "usage: steer mcp list [--json] | steer mcp tools NAME [--json] | steer mcp login NAME"},
		{"mcp tools", "usage: steer mcp list [--json] | steer mcp tools NAME [--json] | steer mcp login NAME"},
		{"mcp list x", "usage: steer mcp list [--json] | steer mcp tools NAME [--json] | steer mcp login NAME"},
		{"config extra", "usage: steer config [--json] [--config FILE]"},
		{"trust a b", "usage: steer trust [PATH] [--revoke] [--json]"},
		{"run --revoke hi", "--revoke applies to 'steer trust' only"},
		{"sessions --trust-project", "--trust-project applies to the terminal UI, 'steer run', 'steer rpc' and 'steer mcp' only"},
	}
	for _, tt := range tests {
		if _, err := ParseArgs(strings.Fields(tt.argv), 60); err == nil || err.Error() != tt.want {
			t.Errorf("ParseArgs(%s) = %v; want %q", tt.argv, err, tt.want)
		}
	}
}
