// Command floor is the least a program can do that answers one prompt the
// way steer must, built from the libraries steer is required to use: it
// links Bubble Tea, Bubbles, Lip Gloss and Glamour (so their package
// initialisation runs, as in any binary that has the TUI), builds and sends
// the request with openai-go (retries off), copies the streamed body to
// stdout without decoding it (as curl does), and saves a row saying how
// long it was with modernc.org/sqlite. BenchmarkSideBySide runs it beside curl and steer: no
// steer built from these libraries can start faster or smaller than this.
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

	_ "github.com/anthropics/anthropic-sdk-go/v2"
	_ "github.com/charmbracelet/bubbles/textarea"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/glamour"
	_ "github.com/charmbracelet/lipgloss"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	_ "modernc.org/sqlite"
)

func main() {
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
