package tui

import (
	"io"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/tui/chat"
	"github.com/steer-tui/steer/tui/command"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/inspect"
	"github.com/steer-tui/steer/tui/keybind"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/queue"
	"github.com/steer-tui/steer/tui/status"
	"github.com/steer-tui/steer/tui/theme"
	"github.com/steer-tui/steer/tui/todo"
	"github.com/steer-tui/steer/tui/treeview"
)

// Options configure the TUI. The zero value works: the dark theme, no saved
// sessions, no mouse capture.
type Options struct {
	// Theme is the palette and markdown style, chosen once before the
	// program starts (theme.Dark, theme.Light or theme.Plain). The zero
	// value means theme.Dark().
	Theme theme.Theme
	// ThemesDir holds the theme files /theme offers, and the file of a
	// theme read from one is watched there; "" offers the built-ins only.
	ThemesDir string
	// themeStamp is the theme file's as RunTerminal read it, so that a
	// change from then on is seen (zero: the first look records it).
	themeStamp fileStamp
	// Profile is the colour profile markdown is rendered for; main passes
	// lipgloss.ColorProfile(), tests termenv.Ascii. The zero value is
	// TrueColor.
	Profile termenv.Profile
	// Sessions lists and resumes saved sessions; nil disables /sessions.
	Sessions SessionBrowser
	// Exporter writes the current session to a file; nil disables /export.
	Exporter Exporter
	// Mentions finds files for "@" and reads what a message attaches; nil
	// offers no files and sends the text as typed.
	Mentions Mentions
	// Welcome is a note shown at the top of an empty transcript.
	Welcome string
	// Notice is a note shown under the first session's transcript, empty or
	// not (a resumed session that works in another directory).
	Notice string
	// ToolColors keeps SGR colours in tool output (everything else is
	// always stripped).
	ToolColors bool
	// Mouse starts with mouse capture on (wheel scrolling); Alt+M toggles it.
	// Off by default so that the terminal's own selection works.
	Mouse bool
	// MaxInputBytes is the largest input the runtime accepts
	// (agent.maxInputBytes): a larger paste is not sent and stays in the
	// editor, saying why. 0 leaves the refusal to the runtime.
	MaxInputBytes int
	// Terminal is what the terminal does beyond drawing (notify.go).
	Terminal TerminalFeatures
	// Keys are the user's key bindings (LoadKeyBindings); the zero value
	// keeps the defaults.
	Keys keybind.User
	// Now is the clock; it defaults to time.Now.
	Now func() time.Time

	// Input and Output replace the terminal (tests); Unsent receives the
	// input left unsent when the program ends (default os.Stderr).
	Input  io.Reader
	Output io.Writer
	Unsent io.Writer
}

// focusArea is which pane has the keys.
type focusArea int

const (
	focusInput focusArea = iota
	focusChat
	focusQueue
)

// Model is the root of the program. It routes messages to its components
// and turns requests into runtime calls; the components own their state.
type Model struct {
	rt       Runtime
	sessions SessionBrowser
	opts     *Options      // never changed after New
	styles   *theme.Styles // never changed after New
	keys     KeyMap
	commands *command.Registry
	// libraryCommands and promptCommands are the dynamic commands, the
	// user's skills and templates and the MCP prompts (skills.go).
	libraryCommands, promptCommands []command.Command
	// calls owns the runtime calls (see calls.go); the pointer is shared by
	// copies of the model, as the one queue they all hand requests to.
	calls *calls
	// latest is the id of the latest request of each topic: replies to
	// older ones are stale (handleCallDone).
	latest [topicCount]uint64
	// answered is the id of the latest reply of each topic.
	answered [topicCount]uint64

	// unfocused says that the terminal reported losing the focus
	// (notify.go).
	unfocused bool

	chat    chat.Model
	input   input.Model
	queue   queue.Model
	todos   todo.Model // the pinned todo list
	status  status.Model
	dialogs []dialog.Model
	// searchEverywhere says the session picker searches every workspace.
	searchEverywhere bool
	// sessionAsked is the picker's last search, its query and scope, which
	// a late query message does not ask again; "" for none yet.
	sessionAsked string
	help         *help.Model // only its Width changes, in refresh

	// The open inspector (inspectors.go), while inspecting; inspectGen
	// counts openings (its ticks carry it), inspectPending says a read of
	// its view is under way.
	inspector  inspect.Model
	inspecting bool
	// tree is /tree while treeOpen.
	tree           treeview.Model
	treeOpen       bool
	inspectGen     uint64
	inspectPending bool
	// traces records the runs this screen saw, for /trace.
	traces inspect.TraceLog
	// The health the badge shows (health.go): the last reading as the
	// events since changed it, the number of the timer for the earliest
	// window's end, and the store's version last read (storeKnown once
	// read).
	health       msgs.HealthChangedMsg
	healthGen    uint64
	storeVersion uint64
	storeKnown   bool

	focus    focusArea
	width    int
	height   int
	runID    uint64
	running  bool
	aborting bool // Esc was pressed; the run's end takes the queue back
	// switchNote is said when the runtime announces switchTo, the session
	// asked for ("resumed: …"; "" when no switch is under way); switchTo is
	// "" for a new session.
	switchNote, switchTo string
	// subagentView says that the session shown is a running sub-agent's,
	// read-only; resuming it again once it has answered opens it writable.
	subagentView bool
	quitting     bool
	mouse        bool
	lastCtrlC    time.Time
	// lastKey is when the last key came, wherever it went; pauseEnds is the
	// end of a question's pause that a tick is scheduled for (typeahead.go).
	lastKey, pauseEnds time.Time
	replyOpen          bool // a late terminal answer has begun (see lateReply)
	// held are the slash commands typed during the run, waiting for its
	// end (held.go); heldSeq numbers them.
	held    []heldCommand
	heldSeq int
	// compaction is the /compact under way, nil when none is.
	compaction *compaction
	// plan is the session's approval mode, for /plan (plan.go).
	plan      planState
	sessionID string
	thinking  string
	helpLine  string
	helpSig   string
	// themeWatch is the theme file in use, watched for changes (themes.go);
	// nil for a built-in theme.
	themeWatch *themeWatch
}

// New builds the root model. It does no IO: the runtime is first read by the
// owner of runtime calls (calls.go), which Run starts.
func New(rt Runtime, opts Options) Model {
	if opts.Theme.Name == "" {
		opts.Theme = theme.Dark()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	st := theme.NewStyles(opts.Theme)
	m := Model{
		rt: rt, sessions: opts.Sessions, opts: &opts, styles: &st,
		keys: keybind.Bind(opts.Keys, DefaultKeyMap()), calls: newCalls(), mouse: opts.Mouse,
		width: 80, height: 24,
	}
	if fromFile(opts.Theme) && opts.ThemesDir != "" {
		m.themeWatch = &themeWatch{name: opts.Theme.Name, stamp: opts.themeStamp, known: opts.themeStamp != fileStamp{}}
	}
	m.commands = m.registerCommands()
	var suggestions []input.Suggestion
	for _, c := range m.commands.All() {
		suggestions = append(suggestions, input.Suggestion{Name: c.Name, Args: c.Args, Summary: c.Summary})
	}
	m.chat = chat.New(chat.Deps{
		Styles: st.Chat, Keys: keybind.Bind(opts.Keys, chat.DefaultKeyMap()), Profile: opts.Profile,
		Now: opts.Now, ToolColors: opts.ToolColors,
	})
	m.input = input.New(input.Deps{
		Styles: st.Input, Keys: keybind.Bind(opts.Keys, input.DefaultKeyMap()), Edit: keybind.Bind(opts.Keys, input.DefaultEditKeyMap()),
		Commands: suggestions, MaxBytes: opts.MaxInputBytes, Files: filesOf(opts.Mentions), Resources: resourcesOf(opts.Mentions), Placeholder: "Ask anything · / for commands · Enter sends, also while it works",
	})
	m.queue = queue.New(queue.Deps{Styles: st.Queue, Keys: keybind.Bind(opts.Keys, queue.DefaultKeyMap())})
	m.todos = todo.New(st.Todo)
	m.status = status.New(status.Deps{Styles: st.Status, Now: opts.Now})
	h := help.New()
	h.Styles = st.Help
	m.help = &h
	// The first request: the runtime's state (transcript, queue, model),
	// read once the owner of runtime calls starts.
	m = m.requestSession(loadSession(rt, opts.Welcome, opts.Notice)).checkStore().checkHealth().loadHistory().loadPrompts().loadLibrary(false).refreshModels()
	m.refresh()
	return m
}

// Init turns on the mouse if asked.
func (m Model) Init() tea.Cmd {
	if m.mouse {
		return tea.Batch(tea.EnableMouseCellMotion, readWorkspaceTrust(m.rt), readInterruptedRewind(m.rt))
	}
	return tea.Batch(readWorkspaceTrust(m.rt), readInterruptedRewind(m.rt))
}

func (m Model) dialogDeps() dialog.Deps {
	return dialog.Deps{Styles: m.styles.Dialog, Keys: m.dialogKeys()}
}
