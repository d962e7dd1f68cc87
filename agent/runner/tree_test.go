package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// treeShape words a tree as "id<parent:what" per entry.
func treeShape(t SessionTree) string {
	parts := make([]string, len(t.Entries))
	for i, e := range t.Entries {
		what := string(e.Kind)
		if e.Kind == HistoryMessage {
			what = string(e.Message.Role) + "/" + e.Message.TextContent()
		}
		parts[i] = fmt.Sprintf("%s<%s:%s", e.ID, e.ParentID, what)
	}
	return strings.Join(parts, " ")
}

// TestNavigateTreeBranches: moving the leaf back and prompting makes a
// branch; with a summary the branch left is summarised by the model (a
// request with no tools that asks for a summary) and the model sees it;
// labels land on their entry; a fork holds exactly the path before the user
// message it was cut at, and a clone the whole path.
func TestNavigateTreeBranches(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	ok := func(text string) *agenttest.Response { return agenttest.Reply().Text(text).Stop(agent.StopReasonStop) }
	script := agenttest.NewScript(ok("A1"), ok("A2"), ok("the branch tried two"), ok("A3"))
	rt := newRuntime(t, store, script, Options{})
	ctx := context.Background()
	for _, p := range []string{"one", "two"} {
		if err := rt.Prompt(ctx, p); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
	}
	tree, err := rt.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := treeShape(tree); got != "1<:user/one 2<1:assistant/A1 3<2:user/two 4<3:assistant/A2" || tree.Leaf != "4" {
		t.Fatalf("tree %s leaf %s", got, tree.Leaf)
	}
	if err := rt.LabelEntry(ctx, "1", "  the   start "); err != nil {
		t.Fatal(err)
	}
	if err := rt.NavigateTree(ctx, "2", true); err != nil {
		t.Fatal(err)
	}
	req := script.Requests()[2]
	if len(req.Tools) != 0 || !strings.Contains(req.Messages[0].TextContent(), "summary") || !strings.Contains(req.Messages[0].TextContent(), "two") {
		t.Fatalf("the branch summary request: %d tools, %q", len(req.Tools), req.Messages[0].TextContent())
	}
	if err := rt.Prompt(ctx, "three"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	sent := script.Requests()[3].Messages
	if len(sent) != 4 || !strings.Contains(sent[2].TextContent(), "the branch tried two") || sent[3].TextContent() != "three" {
		t.Fatalf("the model got %d messages after navigating: %v", len(sent), sent)
	}
	tree, err = rt.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "1<:user/one 2<1:assistant/A1 3<2:user/two 4<3:assistant/A2 5<4:label 6<2:branch_summary 7<6:user/three 8<7:assistant/A3"
	if got := treeShape(tree); got != want || tree.Leaf != "8" {
		t.Fatalf("tree after the branch\n got %s\nwant %s (leaf %s)", got, want, tree.Leaf)
	}
	if l := tree.Entries[4]; l.Target != "1" || l.Label != "the start" {
		t.Fatalf("label %+v", l)
	}

	from := rt.SessionID()
	text, err := rt.Fork(ctx, "7")
	if err != nil || text != "three" {
		t.Fatalf("Fork = %q, %v", text, err)
	}
	if rt.SessionID() == from {
		t.Fatal("the fork is not current")
	}
	fork, err := rt.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := treeShape(fork); got != "1<:user/one 2<1:assistant/A1 3<2:branch_summary" {
		t.Fatalf("fork %s", got)
	}
	if err := rt.Clone(ctx); err != nil {
		t.Fatal(err)
	}
	if clone, _ := rt.Tree(ctx); treeShape(clone) != treeShape(fork) {
		t.Fatalf("clone %s, want %s", treeShape(clone), treeShape(fork))
	}
	for name, err := range map[string]error{
		"fork at an answer": func() error { _, err := rt.Fork(ctx, "2"); return err }(),
		"navigate nowhere":  rt.NavigateTree(ctx, "99", false),
		"label nothing":     rt.LabelEntry(ctx, "x", "l"),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := rt.NavigateTree(ctx, "99", false); !errors.Is(err, ErrNoEntry) {
		t.Errorf("navigate nowhere: %v is not ErrNoEntry", err)
	}
}
