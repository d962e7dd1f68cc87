package headless

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestReadPrompt(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		stdin   string
		want    string
		wantErr string
	}{
		{name: "arguments joined", args: []string{"run", "go", "version"}, want: "run go version"},
		{name: "dash reads stdin", args: []string{"-"}, stdin: "  from stdin\n", want: "from stdin"},
		{name: "no arguments read stdin", stdin: "piped", want: "piped"},
		{name: "empty stdin", stdin: " \n", wantErr: "the prompt is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPrompt(tt.args, strings.NewReader(tt.stdin))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
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

// A character device on stdin (a terminal, or /dev/null standing in for one)
// with no arguments is a missing prompt, not a silent wait.
func TestReadPromptRefusesACharacterDevice(t *testing.T) {
	dev, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer dev.Close()
	if _, err := ReadPrompt(nil, dev); !errors.Is(err, ErrNoPrompt) {
		t.Fatalf("ReadPrompt on a character device = %v, want ErrNoPrompt", err)
	}
}
