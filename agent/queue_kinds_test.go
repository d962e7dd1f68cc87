package agent

import (
	"reflect"
	"testing"
)

func TestParseQueueKind(t *testing.T) {
	tests := []struct {
		in   string
		want QueueKind
		ok   bool
	}{
		{"steer", QueueSteer, true},
		{"follow_up", QueueFollowUp, true},
		{"collect", QueueCollect, true},
		{"interrupt", QueueInterrupt, true},
		{"shell", QueueShell, true},
		{"shell_private", QueueShellPrivate, true},
		{"followup", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := ParseQueueKind(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseQueueKind(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// items makes queue items named by their ids, whose first letter is the
// kind: s steer, f follow-up, c collect, i interrupt, x unknown.
func items(ids ...string) []QueueItem {
	kinds := map[byte]QueueKind{'s': QueueSteer, 'f': QueueFollowUp, 'c': QueueCollect, 'i': QueueInterrupt, 'x': "shout"}
	out := make([]QueueItem, len(ids))
	for i, id := range ids {
		out[i] = QueueItem{ID: id, Kind: kinds[id[0]]}
	}
	return out
}

func ids(items []QueueItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func TestDrainTakesCollectedItemsTogether(t *testing.T) {
	tests := []struct {
		name        string
		mode        QueueMode
		queue       []string
		taken, left []string
	}{
		{"empty", QueueOneAtATime, nil, []string{}, []string{}},
		{"one at a time", QueueOneAtATime, []string{"f1", "f2"}, []string{"f1"}, []string{"f2"}},
		{"all", QueueAll, []string{"f1", "f2"}, []string{"f1", "f2"}, []string{}},
		{"collected first: all of them, whatever the mode", QueueOneAtATime,
			[]string{"c1", "f1", "c2", "c3"}, []string{"c1", "c2", "c3"}, []string{"f1"}},
		{"a follow-up first: the mode decides", QueueOneAtATime,
			[]string{"f1", "c1", "c2"}, []string{"f1"}, []string{"c1", "c2"}},
		{"all takes collected items too", QueueAll, []string{"f1", "c1"}, []string{"f1", "c1"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := pendingQueue{items: items(tt.queue...), mode: tt.mode}
			if got := ids(q.drain()); !reflect.DeepEqual(got, tt.taken) {
				t.Errorf("taken %v, want %v", got, tt.taken)
			}
			if got := ids(q.items); !reflect.DeepEqual(got, tt.left) {
				t.Errorf("left %v, want %v", got, tt.left)
			}
		})
	}
}

func TestPushRoutesKinds(t *testing.T) {
	tests := []struct {
		id       string
		steering bool
		kind     QueueKind
	}{
		{"s1", true, QueueSteer},
		{"i1", true, QueueInterrupt},
		{"f1", false, QueueFollowUp},
		{"c1", false, QueueCollect},
		{"x1", true, QueueSteer}, // an unknown kind steers
	}
	for _, tt := range tests {
		a := New(Config{})
		it := a.pushLocked(items(tt.id)[0])
		if it.Kind != tt.kind {
			t.Errorf("%s: pushed as %q, want %q", tt.id, it.Kind, tt.kind)
		}
		if got := len(a.steering.items) == 1; got != tt.steering {
			t.Errorf("%s: in the steering queue = %v, want %v", tt.id, got, tt.steering)
		}
	}
}
