package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/steer-tui/steer/agent/runner"
)

// ErrNoPrompt is returned by ReadPrompt when there is nothing to answer.
var ErrNoPrompt = errors.New("run needs a PROMPT (or '-' to read it from stdin)")

// ErrEmptyPrompt is returned by ReadPrompt for a prompt of only white space.
var ErrEmptyPrompt = errors.New("the prompt is empty")

// PromptTooLargeError refuses a prompt over the input limit before anything
// is stored; from stdin, no more than the limit and one byte is read.
type PromptTooLargeError struct {
	// Bytes is the prompt's size, or -1 when stdin was not read to its end.
	Bytes int
	Limit int
}

func (e *PromptTooLargeError) Error() string {
	if e.Bytes < 0 {
		return fmt.Sprintf("the prompt on stdin is over the limit of %s (agent.maxInputBytes)", runner.ByteSize(e.Limit))
	}
	return fmt.Sprintf("the prompt is %s, over the limit of %s (agent.maxInputBytes)", runner.ByteSize(e.Bytes), runner.ByteSize(e.Limit))
}

// ReadPrompt takes the prompt from the arguments, or from stdin when they are
// absent or "-". A terminal on stdin with no arguments is ErrNoPrompt rather
// than a silent wait; a blank prompt is ErrEmptyPrompt; one over limit bytes
// (limit > 0) is a *PromptTooLargeError.
func ReadPrompt(args []string, stdin io.Reader, limit int) (string, error) {
	if len(args) > 0 && !(len(args) == 1 && args[0] == "-") {
		prompt := strings.Join(args, " ")
		switch {
		case strings.TrimSpace(prompt) == "":
			return "", ErrEmptyPrompt
		case limit > 0 && len(prompt) > limit:
			return "", &PromptTooLargeError{Bytes: len(prompt), Limit: limit}
		}
		return prompt, nil
	}
	if f, ok := stdin.(*os.File); ok && len(args) == 0 {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			return "", ErrNoPrompt
		}
	}
	r := stdin
	if limit > 0 {
		r = io.LimitReader(stdin, int64(limit)+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("cannot read the prompt from stdin: %v", err)
	}
	if limit > 0 && len(data) > limit {
		return "", &PromptTooLargeError{Bytes: -1, Limit: limit}
	}
	prompt := strings.TrimSpace(string(data))
	if prompt == "" {
		return "", ErrEmptyPrompt
	}
	return prompt, nil
}

// ReadPromptContext is ReadPrompt given up on when ctx ends (a signal while
// steer run waits for its prompt on stdin): it returns ctx's cause then.
func ReadPromptContext(ctx context.Context, args []string, stdin io.Reader, limit int) (string, error) {
	type read struct {
		prompt string
		err    error
	}
	got := make(chan read, 1) // the reader may finish after nobody waits
	go func() {
		prompt, err := ReadPrompt(args, stdin, limit)
		got <- read{prompt, err}
	}()
	select {
	case r := <-got:
		return r.prompt, r.err
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}
