package persistence

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The prompt history's child: helperRoles["prompts"] opens the directory,
// says "ready", waits for "go", appends COUNT prompts to workspace /w named
// "<session> i", and says "done".
func init() {
	helperRoles["prompts"] = func(dir, name string, in *bufio.Scanner) error {
		n, err := strconv.Atoi(os.Getenv(helperCountEnv))
		if err != nil {
			return err
		}
		s, err := Open(dir, Options{})
		if err != nil {
			return err
		}
		defer s.Close()
		fmt.Println("ready")
		if err := expectLine(in, "go"); err != nil {
			return err
		}
		for i := range n {
			p := Prompt{Workspace: "/w", Kind: PromptKindSteer, Text: fmt.Sprintf("%s %d", name, i)}
			if _, err := s.AppendPrompt(context.Background(), p); err != nil {
				return fmt.Errorf("append %d: %w", i+1, err)
			}
		}
		fmt.Println("done")
		return s.Close()
	}
}

func TestPromptsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	in := []Prompt{
		{Workspace: "/a", Kind: PromptKindPrompt, Text: "first prompt", Created: at(1)},
		{Workspace: "/b", Kind: PromptKindPrompt, Text: "elsewhere", Created: at(2)},
		{Workspace: "/a", Kind: PromptKindSteer, Text: "look at [paste #1 · 12 lines · 200 B]", Created: at(3),
			Pastes: []Paste{{Label: "[paste #1 · 12 lines · 200 B]", Text: strings.Repeat("line\n", 12)}}},
		{Workspace: "/a", Kind: PromptKindFollowUp, Text: "/compact", Created: at(4)},
	}
	for i := range in {
		id, err := s.AppendPrompt(ctx, in[i])
		if err != nil {
			t.Fatalf("AppendPrompt(%q): %v", in[i].Text, err)
		}
		in[i].ID = id
	}
	got, err := s.Prompts(ctx, "/a", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Prompt{in[3], in[2], in[0]}; !reflect.DeepEqual(got, want) {
		t.Errorf("Prompts(/a) =\n%+v\nwant newest first\n%+v", got, want)
	}
	got, err = s.Prompts(ctx, "/a", 2)
	if err != nil || len(got) != 2 || got[0].ID != in[3].ID || got[1].ID != in[2].ID {
		t.Errorf("Prompts(/a, 2) = %+v, %v; want the two newest", got, err)
	}
	if got, err := s.Prompts(ctx, "/nowhere", 10); err != nil || len(got) != 0 {
		t.Errorf("Prompts(/nowhere) = %+v, %v; want none", got, err)
	}
}

func TestAppendPromptRefuses(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	for _, p := range []Prompt{
		{Workspace: "/a", Kind: PromptKindPrompt, Text: "  \n"},
		{Workspace: "/a", Kind: "shout", Text: "hello"},
	} {
		if _, err := s.AppendPrompt(ctx, p); err == nil {
			t.Errorf("AppendPrompt(%+v) succeeded, want an error", p)
		}
	}
	if got, _ := s.Prompts(ctx, "/a", 10); len(got) != 0 {
		t.Errorf("refused prompts were stored: %+v", got)
	}
	ro, err := Open(s.dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.AppendPrompt(ctx, Prompt{Workspace: "/a", Kind: PromptKindPrompt, Text: "x"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("AppendPrompt on a read-only store = %v, want ErrReadOnly", err)
	}
}

func TestSearchPrompts(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	ids := map[string]int64{}
	for _, text := range []string{"first prompt", "second prompt", "Second guess", "100% sure", "a_b", "third prompt"} {
		id, err := s.AppendPrompt(ctx, Prompt{Workspace: "/a", Kind: PromptKindPrompt, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		ids[text] = id
	}
	if _, err := s.AppendPrompt(ctx, Prompt{Workspace: "/b", Kind: PromptKindPrompt, Text: "second elsewhere"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query  string
		before string // the text of the prompt to search before, "" for none
		limit  int
		want   []string
	}{
		{"sec", "", 10, []string{"Second guess", "second prompt"}},
		{"SEC", "", 10, []string{"Second guess", "second prompt"}},
		{"sec", "Second guess", 10, []string{"second prompt"}},
		{"prompt", "", 2, []string{"third prompt", "second prompt"}},
		{"%", "", 10, []string{"100% sure"}},
		{"_", "", 10, []string{"a_b"}},
		{"", "", 10, []string{"third prompt", "a_b", "100% sure", "Second guess", "second prompt", "first prompt"}},
		{"nothing", "", 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.query+"/"+tt.before, func(t *testing.T) {
			got, err := s.SearchPrompts(ctx, "/a", tt.query, ids[tt.before], tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, p := range got {
				texts = append(texts, p.Text)
			}
			if !reflect.DeepEqual(texts, tt.want) {
				t.Errorf("SearchPrompts(%q) = %q, want %q", tt.query, texts, tt.want)
			}
		})
	}
}

// TestPromptsProcessesLoseNone has three child processes and this one append
// to one workspace's history at once: every prompt is kept, each process's
// in the order it appended them.
func TestPromptsProcessesLoseNone(t *testing.T) {
	const children, perChild, here = 3, 40, 20
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	var cs []*child
	for i := range children {
		cs = append(cs, startChild(t, "prompts", dir, fmt.Sprintf("child%d", i), helperCountEnv+"="+strconv.Itoa(perChild)))
	}
	for _, c := range cs {
		c.expect("ready")
	}
	for _, c := range cs {
		c.send("go")
	}
	for i := range here {
		if _, err := s.AppendPrompt(ctx, Prompt{Workspace: "/w", Kind: PromptKindPrompt, Text: fmt.Sprintf("parent %d", i)}); err != nil {
			t.Fatalf("append %d: %v", i+1, err)
		}
	}
	for _, c := range cs {
		c.expect("done")
		if err := c.wait(); err != nil {
			t.Fatalf("child %d: %v", c.pid(), err)
		}
	}
	got, err := s.Prompts(ctx, "/w", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != children*perChild+here {
		t.Fatalf("%d prompts kept, want %d", len(got), children*perChild+here)
	}
	next := map[string]int{} // each writer's next number, counting down from the newest
	for _, p := range got {
		who, n, _ := strings.Cut(p.Text, " ")
		i, _ := strconv.Atoi(n)
		want, seen := next[who]
		if !seen {
			want = map[bool]int{true: here, false: perChild}[who == "parent"] - 1
		}
		if i != want {
			t.Fatalf("%q came where %s %d was due: a process's prompts are out of order", p.Text, who, want)
		}
		next[who] = i - 1
	}
	integrityOK(t, s)
}
