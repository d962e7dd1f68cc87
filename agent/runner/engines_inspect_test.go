package runner

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/persistence"
)

func TestViewEngines(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	notes := EngineRef{Name: "notes", Command: []string{"python3", "engine.py"}, Timeout: 2 * time.Second}
	arch := EngineRef{Name: "arch", Command: []string{"arch-engine"}}
	qNotes := engines.Quarantine{Engine: "notes", Method: engines.MethodAssemble, Reason: engines.ReasonCrash,
		Error: "exit status 3", Since: at, Last: at, Count: 2}
	qGone := engines.Quarantine{Engine: "gone", Method: engines.MethodInfo, Reason: engines.ReasonTimeout, Since: at, Last: at, Count: 1}
	legacy := func(selected bool) EngineView {
		return EngineView{Name: "legacy", Kind: EngineBuiltin, Command: []string{}, Selected: selected}
	}
	notesView := EngineView{Name: "notes", Kind: EngineExternal, Command: notes.Command, TimeoutSeconds: 2}
	archView := EngineView{Name: "arch", Kind: EngineExternal, Command: arch.Command, TimeoutSeconds: engines.DefaultTimeout.Seconds()}
	with := func(v EngineView, selected, quarantined bool) EngineView {
		v.Selected, v.Quarantined = selected, quarantined
		return v
	}
	cases := []struct {
		name       string
		selected   string
		configured []EngineRef
		qs         []engines.Quarantine
		want       EnginesView
	}{
		{"nothing configured", "", nil, nil,
			EnginesView{Active: "legacy", Selected: "legacy", Engines: []EngineView{legacy(true)}, Quarantines: []engines.Quarantine{}}},
		{"an external engine selected", "notes", []EngineRef{notes, arch}, nil,
			EnginesView{Active: "notes", Selected: "notes", Engines: []EngineView{legacy(false), archView, with(notesView, true, false)},
				Quarantines: []engines.Quarantine{}}},
		{"the selected engine quarantined", "notes", []EngineRef{notes}, []engines.Quarantine{qNotes},
			EnginesView{Active: "legacy", Selected: "notes", Engines: []EngineView{legacy(false), with(notesView, true, true)},
				Quarantines: []engines.Quarantine{qNotes}}},
		{"another engine quarantined, one no longer configured too", "arch", []EngineRef{notes, arch}, []engines.Quarantine{qNotes, qGone},
			EnginesView{Active: "arch", Selected: "arch", Engines: []EngineView{legacy(false), with(archView, true, false), with(notesView, false, true)},
				Quarantines: []engines.Quarantine{qGone, qNotes}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ViewEngines(tc.selected, tc.configured, tc.qs)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ViewEngines =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// The JSON is an object whose arrays are never null.
func TestEnginesViewJSON(t *testing.T) {
	b, err := json.Marshal(ViewEngines("", nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"active":"legacy","selected":"legacy","engines":[{"name":"legacy","kind":"builtin","command":[],"timeoutSeconds":0,"selected":true,"quarantined":false}],"quarantines":[]}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
}

// InspectEngines reads what a steer process recorded, through a read-only
// store: what `steer inspect engines` does in a new process.
func TestInspectEnginesReadsTheStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	w, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	q := engines.Quarantine{Engine: "notes", Method: engines.MethodCompact, Reason: engines.ReasonInvalidOutput,
		Error: "not JSON", Since: at, Last: at, Count: 1}
	if _, err := w.EngineQuarantines().Record(ctx, q); err != nil {
		t.Fatal(err)
	}
	ro, err := persistence.Open(dir, persistence.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	v, err := InspectEngines(ctx, ro.EngineQuarantines(), "notes", []EngineRef{{Name: "notes", Command: []string{"x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Active != "legacy" || len(v.Quarantines) != 1 || v.Quarantines[0] != q || !v.Engines[1].Quarantined {
		t.Errorf("InspectEngines = %+v", v)
	}
}
