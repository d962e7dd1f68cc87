package inspector

// Table is what an inspector shows in the TUI: a title, a one-line summary,
// columns and rows; tui/inspect draws it. An inspector's Def.Table builds
// it from a view, purely.
type Table struct {
	Title   string
	Summary string
	Columns []Column
	Rows    []Row
	// Empty is shown instead of the rows when there are none.
	Empty string
	// Pages are the keys of the pages ← and → go through (the trace's
	// runs, newest first); nil for a table of one page. The TUI stays on
	// the page whose key it showed when the view is read again.
	Pages []string
}

// Column is one column: its title, the widest it may grow (0: as wide as
// its widest cell), and when it gives way to a narrow screen: columns with
// a Drop are left out, highest first, before any column is cut.
type Column struct {
	Title string
	Max   int
	Drop  int
}

// Tone colours a cell by what it says.
type Tone int

// The tones: plain, fine (available), a warning (cooling down) and bad
// (disabled, quarantined, failed).
const (
	ToneNone Tone = iota
	ToneOK
	ToneWarn
	ToneBad
)

// Cell is one cell of a row.
type Cell struct {
	Text string
	Tone Tone
}

// Row is one row: its cells (one per column), the lines shown under the
// table while it is selected, its identity (Key: the selection stays on it
// when the table is rebuilt), what the clear key acts on ("" for nothing),
// for an auth profile the session's choice of it, and for an MCP server
// what can be done to it.
type Row struct {
	Cells  []Cell
	Detail []string
	Key    string
	Target string
	Choice *Choice
	Server *Server
}

// Server is the MCP server on a row: r restarts it, l signs in to it when
// it is a remote server that needs a login.
type Server struct {
	Name     string
	CanLogin bool
}

// Choice is the session's choice of the auth profile on a row: p prefers
// (or unprefers) it, l locks (or unlocks) the session to it.
type Choice struct {
	Profile           string
	Preferred, Locked bool
}

// text is a cell without tone.
func text(s string) Cell { return Cell{Text: s} }
