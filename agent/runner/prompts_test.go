package runner

import (
	"context"
	"reflect"
	"testing"

	"github.com/steer-tui/steer/agent/agenttest"
)

// TestPromptHistorySharedByWorkspace: two runtimes of one workspace (two
// steer processes, say) append to one history, which a third workspace does
// not see; each item keeps its kind and pastes.
func TestPromptHistorySharedByWorkspace(t *testing.T) {
	ctx := context.Background()
	store := openStore(t, t.TempDir())
	defer store.Close()
	a := newRuntime(t, store, agenttest.NewScript(), Options{Workspace: "/ws"})
	b := newRuntime(t, store, agenttest.NewScript(), Options{Workspace: "/ws"})
	other := newRuntime(t, store, agenttest.NewScript(), Options{Workspace: "/other"})
	sent := []struct {
		rt *Runtime
		p  Prompt
	}{
		{a, Prompt{Kind: PromptNew, Text: "first prompt"}},
		{b, Prompt{Kind: PromptSteer, Text: "look [paste #1 · 11 lines · 22 B]", Pastes: []Paste{{Label: "[paste #1 · 11 lines · 22 B]", Text: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11"}}}},
		{a, Prompt{Kind: PromptFollowUp, Text: "then the docs"}},
		{other, Prompt{Kind: PromptNew, Text: "not here"}},
	}
	var want []Prompt
	for _, s := range sent {
		saved, err := s.rt.AddPrompt(ctx, s.p)
		if err != nil {
			t.Fatalf("AddPrompt(%q): %v", s.p.Text, err)
		}
		if saved.ID == 0 || saved.Created.IsZero() {
			t.Fatalf("AddPrompt(%q) = %+v, want an id and a time", s.p.Text, saved)
		}
		if s.rt != other {
			want = append([]Prompt{saved}, want...)
		}
	}
	for _, rt := range []*Runtime{a, b} {
		h, err := rt.PromptHistory(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if h.Workspace != "/ws" || !reflect.DeepEqual(h.Prompts, want) {
			t.Errorf("PromptHistory = %+v,\nwant /ws and %+v", h, want)
		}
	}
	if _, err := a.AddPrompt(ctx, Prompt{Kind: PromptNew, Text: " "}); err == nil {
		t.Error("AddPrompt of empty text succeeded, want an error")
	}
}

// TestPromptMatchesAsTheStoreSearches: the rule a front end filters with is
// the store's.
func TestPromptMatchesAsTheStoreSearches(t *testing.T) {
	ctx := context.Background()
	store := openStore(t, t.TempDir())
	defer store.Close()
	rt := newRuntime(t, store, agenttest.NewScript(), Options{})
	texts := []string{"Second prompt", "second PROMPT", "Ünïcode Straße", "100% done", "a_b", "tab\there"}
	for _, text := range texts {
		if _, err := rt.AddPrompt(ctx, Prompt{Kind: PromptNew, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	for _, query := range []string{"sec", "SEC", "prompt", "straße", "STRASSE", "ünï", "%", "_", "\t", "", "zzz"} {
		found, err := rt.SearchPrompts(ctx, query, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		inStore := map[string]bool{}
		for _, p := range found {
			inStore[p.Text] = true
		}
		for _, text := range texts {
			if got := PromptMatches(text, query); got != inStore[text] {
				t.Errorf("PromptMatches(%q, %q) = %v, the store's search says %v", text, query, got, inStore[text])
			}
		}
	}
}

func TestPromptHistoryWithoutStore(t *testing.T) {
	ctx := context.Background()
	rt := newRuntime(t, nil, agenttest.NewScript(), Options{})
	p, err := rt.AddPrompt(ctx, Prompt{Kind: PromptNew, Text: "kept by the front end"})
	if err != nil || p.ID != 0 || p.Text != "kept by the front end" {
		t.Errorf("AddPrompt without a store = %+v, %v; want it back unsaved", p, err)
	}
	if h, err := rt.PromptHistory(ctx); err != nil || len(h.Prompts) != 0 || h.Workspace != "/ws" {
		t.Errorf("PromptHistory without a store = %+v, %v; want an empty /ws history", h, err)
	}
}
