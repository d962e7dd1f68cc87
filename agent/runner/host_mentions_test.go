package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestAttachedFilesSurviveAReload: the host's index finds the workspace's
// file, Attach reads it with its path, and the message sent with it keeps
// its attachment when the session is loaded again, for the chip.
func TestAttachedFilesSurviveAReload(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("# steer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := openStore(t, dir)
	defer store.Close()
	h := NewHost(newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)), Options{Workspace: ws}))
	ix := h.FileIndex()
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if res := ix.Query("READ", 5); len(res.Matches) != 1 || res.Matches[0].Path != "README.md" {
		t.Fatalf("Query(READ) = %+v", res.Matches)
	}
	blocks, err := h.Attach(context.Background(), "what is in @README.md", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Steer(context.Background(), "what is in @README.md", blocks...); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, h.Current())
	store.Close()

	store = openStore(t, dir)
	defer store.Close()
	resumed := newRuntime(t, store, agenttest.NewScript(), Options{Workspace: ws, Continue: true})
	msgs := resumed.State().Messages
	if len(msgs) == 0 {
		t.Fatal("the resumed session has no messages")
	}
	user := msgs[0]
	want := agent.Attachment{Path: "README.md", Size: 8}
	if got := user.Attached(); len(got) != 1 || got[0] != want || user.Typed() != "what is in @README.md" {
		t.Fatalf("reloaded user message: typed %q, attached %+v; want %+v", user.Typed(), got, want)
	}
}

// TestImagesRefusedForATextOnlyModel: an image for a model without image
// input is refused before anything is saved or queued.
func TestImagesRefusedForATextOnlyModel(t *testing.T) {
	textOnly := agenttest.Model
	textOnly.Input = []string{"text"}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "test", Models: []agent.Model{textOnly}, Stream: agenttest.NewScript().Stream}},
		Workspace: t.TempDir(), Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt)
	img := agent.Content{Type: agent.ContentImage, MimeType: "image/png", Data: "iVBORw0KGgo=", Attached: agent.Attachment{Path: "a.png", Size: 8}}
	_, _, err = rt.Steer(context.Background(), "look", img)
	var refused *ImagesRefusedError
	if !errors.As(err, &refused) || err.Error() != "scripted-test takes no images; pick a model that does with /model, or remove the image" {
		t.Fatalf("Steer with an image = %v, want the refusal", err)
	}
	if st := rt.State(); len(st.Messages) != 0 || len(st.Queue) != 0 {
		t.Fatalf("after the refusal: %d messages, %d queued", len(st.Messages), len(st.Queue))
	}
	if _, _, err := rt.Steer(context.Background(), "look", agent.Text("text is fine")); err != nil {
		t.Fatalf("Steer with text = %v", err)
	}
}
