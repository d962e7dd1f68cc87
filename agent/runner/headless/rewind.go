package headless

import (
	"flag"

	"github.com/steer-tui/steer/agent/runner"
)

// RewindArgs are the flags of `steer rewind` (issue 32).
type RewindArgs struct {
	To                 string // --to TURN
	Code, Conversation bool   // --code, --conversation: only that part
	DryRun             bool   // --dry-run: the preview only
	SkipChanged        bool   // --skip-changed: leave files changed outside steer alone
	Resume             string // --resume finish|rollback: an interrupted restore
}

// given says whether any rewind flag is set.
func (r RewindArgs) given() bool { return r != RewindArgs{} }

// rewindFlags declares RewindArgs' flags on fs.
func rewindFlags(fs *flag.FlagSet, r *RewindArgs) {
	fs.StringVar(&r.To, "to", "", "")
	fs.BoolVar(&r.Code, "code", false, "")
	fs.BoolVar(&r.Conversation, "conversation", false, "")
	fs.BoolVar(&r.DryRun, "dry-run", false, "")
	fs.BoolVar(&r.SkipChanged, "skip-changed", false, "")
	fs.StringVar(&r.Resume, "resume", "", "")
}

// rewindUsage is the one-line usage of `steer rewind`.
const rewindUsage = "usage: steer rewind --session ID --to TURN [--code|--conversation] [--dry-run] [--skip-changed] [--json] | steer rewind [--session ID] --resume finish|rollback"

// checkRewind checks `steer rewind`'s flags, and that no other command has
// them.
func checkRewind(o Args) error {
	r := o.Rewind
	if o.Command != "rewind" {
		if r.given() {
			return usagef("--to, --code, --conversation, --dry-run, --skip-changed and --resume apply to 'steer rewind' only")
		}
		return nil
	}
	scope, err := runner.ScopeOf(r.Code, r.Conversation)
	switch {
	case len(o.Args) > 0:
		return usagef("rewind takes no arguments, got %q: %s", o.Args[0], rewindUsage)
	case r.Resume != "" && (r.To != "" || r.Code || r.Conversation || r.DryRun || r.SkipChanged):
		return usagef("--resume completes an interrupted restore and takes no other rewind flag: %s", rewindUsage)
	case r.Resume != "" && r.Resume != "finish" && r.Resume != "rollback":
		return usagef("--resume: want finish or rollback, got %q", r.Resume)
	case r.Resume != "":
		return nil
	case o.Session == "" || r.To == "":
		return usagef("%s", rewindUsage)
	case err != nil:
		return usagef("%v", err)
	case r.SkipChanged && scope == runner.RewindConversation:
		return usagef("--skip-changed applies to a rewind of the code; --conversation leaves every file alone")
	}
	return nil
}

// rewindHelp is `steer help rewind`.
const rewindHelp = `steer rewind — go back to before a turn of a session: its code, its conversation or both.

Usage:
  steer rewind --session ID --to TURN [--code|--conversation] [--dry-run] [--skip-changed] [--json]
  steer rewind [--session ID] --resume finish|rollback

TURN is the turn's index (1 is the first turn of the session's current branch) or the
id of its user message ('steer sessions show ID --json' lists the ids); write turn:N or
id:N when a number is both and they differ.

The code goes back to the checkpoint steer took before the turn's first change (every
file but the ignored ones and those over the size cap, which are never touched); the
conversation's branch goes back to before the turn's user message (the later turns stay
in the session's tree). Without --code or --conversation both go back.

It prints the preview (the files that change, those changed outside steer since, those
left out) and restores at once; it never asks and never reads stdin.
  --dry-run        the preview only
  --skip-changed   leave the files changed outside steer as they are
  --json           the preview and the result as one JSON object
  --resume         finish or roll back a restore that steer did not finish (it died in it),
                   in the session's workspace (without --session: the current directory)

Exit status: 0 done, 1 failed, 2 a mistake on the command line (a bad flag, turn or session).
`
