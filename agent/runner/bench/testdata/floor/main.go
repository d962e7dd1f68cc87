// Command floor is the least a program can do that answers one prompt the
// way steer must, built from the libraries steer is required to use: it
// builds and sends the request with openai-go (retries off), copies the
// streamed body to stdout without decoding it (as curl does), and saves a
// row saying how long it was with modernc.org/sqlite. It also holds, without
// running it, the code any steer binary holds for its TUI and its other
// provider (see linked), and returns package init's garbage as steer does.
// BenchmarkSideBySide runs it beside curl and steer: no steer built from
// these libraries can start faster or smaller than this.
//
//	floor BASE_URL STATE_DIR
package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/glamour"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	_ "modernc.org/sqlite"
)

// envLinked, set to anything, makes the floor run linked instead of
// answering. The benchmark never sets it.
const envLinked = "FLOOR_RUN_LINKED"

func main() {
	debug.FreeOSMemory() // as steer does: package init's garbage goes back first
	if os.Getenv(envLinked) != "" {
		linked()
		return
	}
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor BASE_URL STATE_DIR")
		os.Exit(2)
	}
	if err := answer(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// answer asks the server at baseURL, prints the stream and saves its length
// in a database in dir.
func answer(baseURL, dir string) error {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "floor.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS answers (id INTEGER PRIMARY KEY, bytes INTEGER NOT NULL)`); err != nil {
		return err
	}
	client := openai.NewClient(option.WithBaseURL(baseURL), option.WithAPIKey("floor"), option.WithMaxRetries(0))
	var res *http.Response
	err = client.Post(context.Background(), "chat/completions", openai.ChatCompletionNewParams{
		Model:    "m",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
	}, nil, option.WithJSONSet("stream", true), option.WithResponseBodyInto(&res))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	n, err := io.Copy(os.Stdout, res.Body)
	if err != nil {
		return err
	}
	_, err = db.Exec(`INSERT INTO answers (bytes) VALUES (?)`, n)
	return err
}

// linked renders its arguments as markdown with Glamour, runs a Bubble Tea
// text area and streams an Anthropic message: what steer's TUI and its
// Anthropic provider do, and what `steer run` against an OpenAI-compatible
// server never runs. It is here to be linked, not run. Go's linker keeps only
// code reachable from main, and package initialisation alone leaves most of
// these libraries unreachable; a steer binary reaches them all. Glamour's
// renderer, in particular, reaches text/template's method lookup by name,
// after which the linker keeps every exported method of every type that can
// sit in an interface. The binary grows by 14 MB (12.7 MB of it for the
// renderer alone), and the code each process touches spreads with it.
func linked() {
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle("dark"), glamour.WithWordWrap(80))
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	out, err := r.Render(strings.Join(os.Args[1:], "\n\n"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	fmt.Print(out)
	if _, err := tea.NewProgram(editor{textarea.New()}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
	}
	// Never the real API: nothing listens on the discard port.
	client := anthropic.NewClient(anthropicoption.WithBaseURL("http://127.0.0.1:9"), anthropicoption.WithAPIKey("floor"), anthropicoption.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{
		Model:     "m",
		MaxTokens: 1,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))},
	})
	for stream.Next() {
		fmt.Println(stream.Current().Type)
	}
	if err := stream.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
	}
}

// editor is a Bubble Tea model around a text area that quits on any key.
type editor struct{ area textarea.Model }

func (e editor) Init() tea.Cmd { return textarea.Blink }

func (e editor) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		return e, tea.Quit
	}
	var cmd tea.Cmd
	e.area, cmd = e.area.Update(msg)
	return e, cmd
}

func (e editor) View() string { return e.area.View() }
