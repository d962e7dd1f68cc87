package headless

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/agent/tools"
)

// Args are steer's parsed command line; Help says what each flag means.
type Args struct {
	// Command is "" (the terminal UI), "run", "rpc", "sessions",
	// "version" or "help".
	Command string
	// Args are the command's arguments, in order, without the flags.
	Args []string

	Model     string        // --model
	Scenario  string        // --scenario
	Pace      float64       // --pace
	StateDir  string        // --state-dir
	JSON      bool          // --json
	Context   bool          // --context (sessions show: what the model would get)
	Format    string        // --format (sessions export: html, md or jsonl)
	Workspace string        // --workspace (sessions import: where the session works)
	Timeout   time.Duration // --timeout
	MaxCost   float64       // --max-cost: each run's cap in US dollars; 0 for none
	Session   string        // --session
	Continue  bool          // --continue
	Config    string        // --config
	Theme     string        // --theme
	Plain     bool          // --plain: the plain front end instead of the full-screen one
	Approve   tools.Mode    // --approve
	Clear     string        // --clear (inspect engines: NAME; inspect profiles: ID)
	Profile   string        // --profile: the auth profile the session prefers
	Version   bool          // --version
	// TrustProject (--trust-project) lets the workspace's .mcp.json start
	// its servers in this process without a recorded allowance.
	TrustProject bool
	// Revoke (--revoke) makes 'steer trust' forget a workspace's trust.
	Revoke bool
	// Rewind are the flags of 'steer rewind' (rewind.go).
	Rewind RewindArgs
}

// usageError is a mistake on the command line: one line on stderr and
// ExitUsage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// ParseArgs parses steer's command line, accepting the global flags before
// and after the command, and checks it before anything is opened. defaultPace
// is --pace's default (scripted.DefaultPace, a provider this package may not
// import).
//
// With flag.ErrHelp (--help, -h), the Args' Command says whose help was asked for
// (see Help). Any other error is one line for stderr and ExitUsage.
func ParseArgs(argv []string, defaultPace float64) (Args, error) {
	var o Args
	fs := flag.NewFlagSet("steer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.Model, "model", "", "")
	fs.StringVar(&o.Scenario, "scenario", "", "")
	fs.Float64Var(&o.Pace, "pace", defaultPace, "")
	fs.StringVar(&o.StateDir, "state-dir", "", "")
	fs.BoolVar(&o.JSON, "json", false, "")
	fs.BoolVar(&o.Context, "context", false, "")
	fs.StringVar(&o.Format, "format", "", "")
	fs.StringVar(&o.Workspace, "workspace", "", "")
	fs.DurationVar(&o.Timeout, "timeout", 0, "")
	var maxCost *float64 // nil: not given
	fs.Func("max-cost", "", func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("want dollars, e.g. 0.50")
		}
		maxCost = &f
		return nil
	})
	fs.StringVar(&o.Session, "session", "", "")
	fs.BoolVar(&o.Continue, "continue", false, "")
	fs.StringVar(&o.Config, "config", "", "")
	fs.StringVar(&o.Theme, "theme", "", "")
	fs.BoolVar(&o.Plain, "plain", false, "")
	var approve string
	fs.StringVar(&approve, "approve", "", "")
	plan := fs.Bool("plan", false, "")
	fs.StringVar(&o.Clear, "clear", "", "")
	fs.StringVar(&o.Profile, "profile", "", "")
	fs.BoolVar(&o.Version, "version", false, "")
	fs.BoolVar(&o.TrustProject, "trust-project", false, "")
	fs.BoolVar(&o.Revoke, "revoke", false, "")
	rewindFlags(fs, &o.Rewind)
	if err := fs.Parse(argv); err != nil {
		return o, err
	}
	rest := fs.Args()
	if len(rest) > 0 {
		o.Command = rest[0]
		args, err := interleaved(fs, rest[1:])
		if err != nil {
			return o, err
		}
		o.Args = args
	}
	if o.Version {
		return o, nil
	}
	switch o.Command {
	case "":
	case "help":
		switch {
		case len(o.Args) > 1:
			return o, usagef("usage: steer help [COMMAND]")
		case len(o.Args) == 1 && !hasHelp(o.Args[0]):
			return o, usagef("no help for %q: the commands are run, rpc, sessions, inspect, mcp, config, trust and rewind", o.Args[0])
		}
	case "version":
		if len(o.Args) > 0 {
			return o, usagef("version takes no arguments")
		}
	case "rpc":
		if len(o.Args) > 0 {
			return o, usagef("rpc takes no arguments, got %q", strings.Join(o.Args, " "))
		}
	case "run":
	case "sessions":
		if n := len(o.Args); !(n == 0 || n == 2 && (o.Args[0] == "show" || o.Args[0] == "export" || o.Args[0] == "import") || n >= 2 && o.Args[0] == "search" || n >= 3 && o.Args[0] == "rename") {
			return o, usagef("usage: steer sessions [--json] | steer sessions show ID [--context] [--json] | steer sessions export ID [--format html|md|jsonl] | steer sessions import FILE [--workspace DIR] [--json] | steer sessions search QUERY [--json] | steer sessions rename ID NAME")
		}
	case "inspect":
		if err := checkInspect(o.Args, o.Clear); err != nil {
			return o, err
		}
	case "mcp":
		if err := checkMCP(o.Args); err != nil {
			return o, err
		}
	case "config", "trust":
		if err := checkConfigTrust(o); err != nil {
			return o, err
		}
	case "rewind":
	default:
		return o, usagef("unknown command %q; see 'steer help'", o.Command)
	}
	if err := checkRewind(o); err != nil {
		return o, err
	}
	exporting := o.Command == "sessions" && len(o.Args) == 2 && o.Args[0] == "export"
	showing := o.Command == "sessions" && len(o.Args) == 2 && o.Args[0] == "show"
	importing := o.Command == "sessions" && len(o.Args) == 2 && o.Args[0] == "import"
	if o.Workspace != "" && !importing {
		return o, usagef("--workspace applies to 'steer sessions import FILE' only")
	}
	if o.Context && !showing {
		return o, usagef("--context applies to 'steer sessions show ID' only")
	}
	if o.Format != "" && !exporting {
		return o, usagef("--format applies to 'steer sessions export ID' only")
	}
	if exporting && o.JSON {
		return o, usagef("--json does not apply to 'steer sessions export': use --format jsonl")
	}
	if exporting && !knownFormat(o.Format) {
		return o, usagef("--format: unknown export format %q (want html, md or jsonl)", o.Format)
	}
	if o.Clear != "" && o.Command != "inspect" {
		return o, usagef(clearOnly)
	}
	if o.Profile != "" && !profileApplies(o) {
		return o, usagef("--profile applies to the terminal UI, 'steer run', 'steer rpc' and 'steer inspect profiles' only")
	}
	if o.JSON && o.Command != "run" && o.Command != "sessions" && o.Command != "inspect" && o.Command != "mcp" && o.Command != "config" && o.Command != "trust" && o.Command != "rewind" {
		return o, usagef("--json applies to 'steer run', 'steer sessions', 'steer inspect', 'steer mcp', 'steer config', 'steer trust' and 'steer rewind' only")
	}
	if o.Revoke && o.Command != "trust" {
		return o, usagef("--revoke applies to 'steer trust' only")
	}
	if o.TrustProject && o.Command != "" && o.Command != "run" && o.Command != "rpc" && o.Command != "mcp" {
		return o, usagef("--trust-project applies to the terminal UI, 'steer run', 'steer rpc' and 'steer mcp' only")
	}
	if o.Theme != "" {
		if o.Command != "" {
			return o, usagef("--theme applies to the terminal UI only")
		}
		if _, err := config.ParseTheme(o.Theme); err != nil {
			return o, usagef("--theme: %v", err)
		}
	}
	if o.Plain && o.Command != "" {
		return o, usagef("--plain applies to the terminal UI only")
	}
	if approve != "" {
		if o.Command != "" && o.Command != "run" && o.Command != "rpc" {
			return o, usagef("--approve applies to the terminal UI, 'steer run' and 'steer rpc' only")
		}
		mode, err := tools.ParseApproval(approve)
		if err != nil {
			return o, usagef("--approve: %v", err)
		}
		o.Approve = mode
	}
	if *plan {
		switch {
		case approve != "":
			return o, usagef("--plan and --approve exclude each other (--plan is --approve %s)", tools.ModePlan)
		case o.Command != "" && o.Command != "run" && o.Command != "rpc":
			return o, usagef("--plan applies to the terminal UI, 'steer run' and 'steer rpc' only")
		}
		o.Approve = tools.ModePlan
	}
	if o.Pace < 0 {
		return o, usagef("--pace must be 0 or more, got %v", o.Pace)
	}
	if o.Timeout < 0 {
		return o, usagef("--timeout must be positive, got %v", o.Timeout)
	}
	if maxCost != nil {
		if o.Command != "" && o.Command != "run" && o.Command != "rpc" {
			return o, usagef("--max-cost applies to the terminal UI, 'steer run' and 'steer rpc' only")
		}
		if *maxCost <= 0 {
			return o, usagef("--max-cost must be more than 0 dollars, got %v", *maxCost)
		}
		o.MaxCost = *maxCost
	}
	if o.Session != "" && o.Continue {
		return o, usagef("--session and --continue exclude each other")
	}
	return o, nil
}

// profileApplies says whether the command uses --profile: the ones that
// start a session, and the profiles inspector, which marks it.
func profileApplies(o Args) bool {
	switch o.Command {
	case "", "run", "rpc":
		return true
	case "inspect":
		return len(o.Args) == 1 && o.Args[0] == inspector.Profiles.Name()
	}
	return false
}

// clearOnly says where --clear belongs.
const clearOnly = "--clear applies to 'steer inspect engines' and 'steer inspect profiles' only"

// checkInspect accepts `steer inspect NAME` for every registered inspector
// (profiles|engines|lanes|runs), with --clear for those that clear (engines
// NAME, profiles ID).
func checkInspect(args []string, clear string) error {
	usage := "usage: steer inspect " + strings.Join(inspector.Names(), "|") + " [--json] (engines: [--clear NAME], profiles: [--clear ID])"
	if len(args) != 1 {
		return usagef("%s", usage)
	}
	ins, ok := inspector.Lookup(args[0])
	switch {
	case clear != "" && (!ok || ins.Clear() == nil):
		return usagef(clearOnly)
	case !ok:
		return usagef("unknown inspector %q: %s", args[0], usage)
	}
	return nil
}

// hasHelp says whether command has a help text of its own.
func hasHelp(command string) bool {
	_, ok := Help(command)
	return command != "" && ok
}

// interleaved parses flags anywhere among the arguments and returns the
// others in order; everything after "--" is an argument.
func interleaved(fs *flag.FlagSet, rest []string) ([]string, error) {
	var args []string
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		after := fs.Args()
		if consumed := rest[:len(rest)-len(after)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(args, after...), nil
		}
		if len(after) == 0 {
			break
		}
		args, rest = append(args, after[0]), after[1:]
	}
	return args, nil
}

// knownFormat says whether f is an export format; "" is the default, html.
func knownFormat(f string) bool {
	switch f {
	case "", "html", "md", "jsonl":
		return true
	}
	return false
}
