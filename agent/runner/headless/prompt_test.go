package headless

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

func TestReadPrompt(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		stdin   string
		limit   int
		want    string
		wantErr string
	}{
		{name: "arguments joined", args: []string{"run", "go", "version"}, want: "run go version"},
		{name: "dash reads stdin", args: []string{"-"}, stdin: "  from stdin\n", want: "from stdin"},
		{name: "no arguments read stdin", stdin: "piped", want: "piped"},
		{name: "empty stdin", stdin: " \n", wantErr: "the prompt is empty"},
		{name: "empty argument", args: []string{""}, stdin: "not read", wantErr: "the prompt is empty"},
		{name: "blank arguments", args: []string{"  ", "\t"}, wantErr: "the prompt is empty"},
		{name: "arguments within the limit", args: []string{"12345"}, limit: 5, want: "12345"},
		{name: "arguments over the limit", args: []string{"123456"}, limit: 5,
			wantErr: "the prompt is 6 bytes, over the limit of 5 bytes (agent.maxInputBytes)"},
		{name: "stdin within the limit", stdin: "12345", limit: 5, want: "12345"},
		{name: "stdin over the limit", stdin: strings.Repeat("x", 3<<10), limit: 2 << 10,
			wantErr: "the prompt on stdin is over the limit of 2.0 KiB (agent.maxInputBytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPrompt(tt.args, strings.NewReader(tt.stdin), tt.limit)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("ReadPrompt = %q, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ReadPrompt = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// endless is a stdin that never ends, counting what is read from it.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += len(p)
	return len(p), nil
}

// TestReadPromptReadsAtMostTheLimit: a runaway pipe is refused after the
// limit and one byte, not read into memory first.
func TestReadPromptReadsAtMostTheLimit(t *testing.T) {
	in := &endless{}
	_, err := ReadPrompt(nil, io.LimitReader(in, 1<<30), 1<<10)
	var tooLarge *PromptTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Limit != 1<<10 {
		t.Fatalf("err = %v, want a *PromptTooLargeError", err)
	}
	if in.read > 64<<10 {
		t.Errorf("read %d bytes of stdin for a limit of 1 KiB", in.read)
	}
}

// A character device on stdin (a terminal, or /dev/null standing in for one)
// with no arguments is a missing prompt, not a silent wait.
func TestReadPromptRefusesACharacterDevice(t *testing.T) {
	dev, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer dev.Close()
	if _, err := ReadPrompt(nil, dev, 0); !errors.Is(err, ErrNoPrompt) {
		t.Fatalf("ReadPrompt on a character device = %v, want ErrNoPrompt", err)
	}
}
