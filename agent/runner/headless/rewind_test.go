package headless

import (
	"strings"
	"testing"
)

// TestParseRewind: the flags `steer rewind` takes, which it refuses
// together, and that no other command takes them.
func TestParseRewind(t *testing.T) {
	usage := rewindUsage
	cases := []struct {
		argv string
		want RewindArgs
		err  string // "" for none
	}{
		{"rewind --session s --to 1", RewindArgs{To: "1"}, ""},
		{"rewind --session s --to id:7 --code --dry-run --json", RewindArgs{To: "id:7", Code: true, DryRun: true}, ""},
		{"rewind --session s --to 2 --skip-changed", RewindArgs{To: "2", SkipChanged: true}, ""},
		{"rewind --session s --to 2 --conversation", RewindArgs{To: "2", Conversation: true}, ""},
		{"rewind --resume finish", RewindArgs{Resume: "finish"}, ""},
		{"rewind --session s --resume rollback", RewindArgs{Resume: "rollback"}, ""},
		{"rewind --to 1", RewindArgs{}, usage},
		{"rewind --session s", RewindArgs{}, usage},
		{"rewind --session s --to 1 extra", RewindArgs{}, `rewind takes no arguments, got "extra": ` + usage},
		{"rewind --session s --to 1 --code --conversation", RewindArgs{}, "--code and --conversation exclude each other: without either, both are rewound"},
		{"rewind --session s --to 1 --conversation --skip-changed", RewindArgs{}, "--skip-changed applies to a rewind of the code; --conversation leaves every file alone"},
		{"rewind --resume later", RewindArgs{}, `--resume: want finish or rollback, got "later"`},
		{"rewind --resume finish --dry-run", RewindArgs{}, "--resume completes an interrupted restore and takes no other rewind flag: " + usage},
		{"run --dry-run hi", RewindArgs{}, "--to, --code, --conversation, --dry-run, --skip-changed and --resume apply to 'steer rewind' only"},
		{"sessions --to 1", RewindArgs{}, "--to, --code, --conversation, --dry-run, --skip-changed and --resume apply to 'steer rewind' only"},
	}
	for _, c := range cases {
		o, err := ParseArgs(strings.Fields(c.argv), 60)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("ParseArgs(%s) = %v; want %q", c.argv, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("ParseArgs(%s): %v", c.argv, err)
		case c.err == "" && o.Rewind != c.want:
			t.Errorf("ParseArgs(%s).Rewind = %+v; want %+v", c.argv, o.Rewind, c.want)
		}
	}
}
