package runner

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner/discover"
	"github.com/steer-tui/steer/agent/runner/discover/discovertest"
)

// discoveringRuntime is a runtime over the test provider, "box" (an Ollama
// that lists qwen3:8b and llama3.2:latest, nothing configured) and "lab" (a
// vLLM whose "served" is configured with a window of its own); resolve, when
// set, is Options.Resolve.
func discoveringRuntime(t *testing.T, box, lab *discovertest.Switch, model string, resolve func(string) (agent.Model, error)) (*Runtime, *discover.Cache) {
	t.Helper()
	boxSrv, labSrv := httptest.NewServer(box), httptest.NewServer(lab)
	t.Cleanup(boxSrv.Close)
	t.Cleanup(labSrv.Close)
	cache := discover.NewCache([]discover.Server{{Provider: "box", BaseURL: boxSrv.URL + "/v1"}, {Provider: "lab", BaseURL: labSrv.URL + "/v1"}},
		discover.Options{})
	t.Cleanup(cache.Close)
	script := agenttest.NewScript()
	rt, err := New(context.Background(), Options{
		Providers: []Provider{
			{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream},
			{Name: "box", Stream: script.Stream},
			{Name: "lab", Models: []agent.Model{{Provider: "lab", ID: "served", Name: "Served", ContextWindow: 8192}}, Stream: script.Stream},
		},
		Model: model, Resolve: resolve, Discovery: cache, Workspace: "/ws", Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt)
	return rt, cache
}

func boxAndLab() (box, lab *discovertest.Switch) {
	return &discovertest.Switch{Handler: discovertest.Ollama(discovertest.Model{ID: "qwen3:8b", ContextWindow: 40960},
			discovertest.Model{ID: "llama3.2:latest", ContextWindow: 131072})},
		&discovertest.Switch{Handler: discovertest.OpenAI(discovertest.Model{ID: "served", ContextWindow: 32768}, discovertest.Model{ID: "extra"})}
}

// The servers' models join the configured ones, marked, with their windows;
// each resolves, and the one chosen is measured against its window.
func TestDiscoveredModels(t *testing.T) {
	box, lab := boxAndLab()
	rt, _ := discoveringRuntime(t, box, lab, agenttest.Model.Ref(), nil)
	rt.RefreshModels(context.Background())
	type row struct {
		ref        string
		window     int
		discovered bool
	}
	want := []row{
		{"test/scripted-test", 100000, false},
		{"box/qwen3:8b", 40960, true},
		{"box/llama3.2:latest", 131072, true},
		{"lab/served", 8192, false}, // the configuration's window wins
		{"lab/extra", 0, true},
	}
	var got []row
	for _, m := range rt.Models() {
		got = append(got, row{m.Ref(), m.ContextWindow, rt.ModelDiscovered(m)})
	}
	if len(got) != len(want) {
		t.Fatalf("models %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("model %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	resolves := []struct {
		ref, want string
		window    int
	}{
		{"box/qwen3:8b", "box/qwen3:8b", 40960},
		{"llama3.2:latest", "box/llama3.2:latest", 131072}, // a bare id only one server lists
		{"lab/served", "lab/served", 8192},
	}
	for _, tt := range resolves {
		m, err := rt.SetModel(context.Background(), tt.ref)
		if err != nil || m.Ref() != tt.want || m.ContextWindow != tt.window {
			t.Fatalf("SetModel(%q) = %s window %d, %v", tt.ref, m.Ref(), m.ContextWindow, err)
		}
		if w := rt.ContextMeter().Window; w != tt.window {
			t.Errorf("after SetModel(%q) the guard measures against %d tokens, want %d", tt.ref, w, tt.window)
		}
	}
	if _, err := rt.SetModel(context.Background(), "box/nope"); err == nil {
		t.Error("a model no server lists resolved")
	}
}

// A session that starts on a model its server has not listed yet (the
// configuration accepts any id of a discovering provider) gets the
// server's window as soon as the server answers, before any request.
func TestStartingModelTakesTheListedWindow(t *testing.T) {
	box, lab := boxAndLab()
	accepting := func(ref string) (agent.Model, error) { // as config.Config.ModelOf does
		if id, ok := strings.CutPrefix(ref, "box/"); ok {
			return agent.Model{Provider: "box", ID: id}, nil
		}
		return ResolveModel([]Provider{{Name: "test", Models: []agent.Model{agenttest.Model}}}, ref)
	}
	rt, _ := discoveringRuntime(t, box, lab, "box/qwen3:8b", accepting)
	if w := rt.State().Model.ContextWindow; w != 0 {
		t.Fatalf("window %d before any listing", w)
	}
	rt.RefreshModels(context.Background())
	if m := rt.State().Model; m.Ref() != "box/qwen3:8b" || m.ContextWindow != 40960 {
		t.Fatalf("model %s window %d after the listing, want 40960", m.Ref(), m.ContextWindow)
	}
	if w := rt.ContextMeter().Window; w != 40960 {
		t.Errorf("the guard measures against %d tokens", w)
	}
}

// discoveryNotices records a runtime's notices of discovery.
type discoveryNotices struct {
	mu  sync.Mutex
	got []Notice
}

func (l *discoveryNotices) add(n Notice) {
	if n.Kind == NoticeDiscoveryFailed || n.Kind == NoticeDiscoveryRecovered {
		l.mu.Lock()
		l.got = append(l.got, n)
		l.mu.Unlock()
	}
}

func (l *discoveryNotices) take() []Notice {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.got
	l.got = nil
	return out
}

// A server that stops answering is one notice however often it is asked,
// its models leave the list, and they come back with it, told once.
func TestDiscoveryOutageIsOneNotice(t *testing.T) {
	box, lab := boxAndLab()
	rt, _ := discoveringRuntime(t, box, lab, agenttest.Model.Ref(), nil)
	var log discoveryNotices
	defer rt.SubscribeNotices(log.add)()
	rt.RefreshModels(context.Background())
	if got := log.take(); len(got) != 0 {
		t.Fatalf("notices while both answer: %+v", got)
	}
	box.SetOff(true)
	for range 3 {
		rt.RefreshModels(context.Background())
		rt.Models()
	}
	got := log.take()
	if len(got) != 1 || got[0].Kind != NoticeDiscoveryFailed || !strings.Contains(got[0].Text, "box") ||
		!strings.Contains(got[0].Text, "HTTP 503") {
		t.Fatalf("notices %+v, want one failure naming box", got)
	}
	if ch, ok := got[0].Data.(discover.Change); !ok || ch.Provider != "box" || ch.Err == nil {
		t.Errorf("data %#v", got[0].Data)
	}
	for _, m := range rt.Models() {
		if m.Provider == "box" {
			t.Errorf("%s listed while its server is down", m.Ref())
		}
	}
	box.SetOff(false)
	rt.RefreshModels(context.Background())
	rt.RefreshModels(context.Background())
	got = log.take()
	if len(got) != 1 || got[0].Kind != NoticeDiscoveryRecovered || got[0].Text != "box lists its models again: 2 models" {
		t.Fatalf("notices %+v, want one recovery", got)
	}
	if n := len(rt.Models()); n != 5 {
		t.Errorf("%d models after the server came back, want 5", n)
	}
}

// A server down from the start is told too: nothing lists before the
// front end asks (resolving a model, known or not, does not), so the first
// failure reaches it.
func TestDownAtStartIsTold(t *testing.T) {
	box, lab := boxAndLab()
	box.SetOff(true)
	rt, _ := discoveringRuntime(t, box, lab, agenttest.Model.Ref(), nil)
	if _, err := rt.SetModel(context.Background(), agenttest.Model.Ref()); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.SetModel(context.Background(), "nope"); err == nil { // looked up among the listed too
		t.Fatal("an unknown model resolved")
	}
	var log discoveryNotices
	defer rt.SubscribeNotices(log.add)()
	rt.RefreshModels(context.Background())
	if got := log.take(); len(got) != 1 || got[0].Kind != NoticeDiscoveryFailed {
		t.Fatalf("notices %+v, want the failure", got)
	}
}
