package sandbox

import (
	"errors"
	"reflect"
	"testing"
)

func TestPlan(t *testing.T) {
	full := Support{LandlockABI: 7, NetNamespace: true}
	noNS := Support{LandlockABI: 7, NetNamespaceNote: "operation not permitted"}
	sc := Scope{Workspace: "/ws", TempDir: "/tmp/t", Extra: []string{"/opt/x"}, Home: "/home/u"}
	ww := Policy{Mode: WorkspaceWrite, Writable: []string{"~/.cache", "/abs", "rel", "~"}}
	tests := []struct {
		name    string
		support Support
		policy  Policy
		want    setup
		err     string // "" when it can be enforced
	}{
		{name: "off", support: full, policy: Policy{}, want: setup{}},
		{name: "off on a kernel without anything", support: Support{}, policy: Policy{}, want: setup{}},
		{name: "workspace-write", support: full, policy: ww, want: setup{
			ConfineWrites: true,
			Writable:      []string{"/ws", "/tmp/t", "/opt/x"},
			Optional:      append(append([]string{}, devices...), "/home/u/.cache", "/abs", "/ws/rel", "/home/u"),
		}},
		{name: "read-only leaves the workspace out", support: full, policy: Policy{Mode: ReadOnly}, want: setup{
			ConfineWrites: true, Writable: []string{"/tmp/t", "/opt/x"}, Optional: devices,
		}},
		{name: "network denied by a namespace", support: full, policy: Policy{Network: Deny}, want: setup{NetNS: true}},
		{name: "network denied by Landlock without namespaces", support: noNS, policy: Policy{Mode: ReadOnly, Network: Deny}, want: setup{
			ConfineWrites: true, Writable: []string{"/tmp/t", "/opt/x"}, Optional: devices, DenyTCP: true,
		}},
		{name: "Landlock ABI 4 has TCP rules", support: Support{LandlockABI: 4}, policy: Policy{Network: Deny}, want: setup{DenyTCP: true}},
		{name: "no Landlock", support: Support{NetNamespace: true}, policy: Policy{Mode: WorkspaceWrite},
			err: "the sandbox cannot be enforced: this kernel has no Landlock"},
		{name: "Landlock off at boot", support: Support{LandlockNote: "Landlock is not enabled at boot"}, policy: Policy{Mode: ReadOnly},
			err: "the sandbox cannot be enforced: this kernel has no Landlock (Landlock is not enabled at boot)"},
		{name: "Landlock too old to stop truncation", support: Support{LandlockABI: 2, NetNamespace: true}, policy: Policy{Mode: WorkspaceWrite},
			err: "the sandbox cannot be enforced: this kernel's Landlock ABI 2 cannot confine truncation (ABI 3 can)"},
		{name: "no way to deny the network", support: Support{LandlockABI: 3, NetNamespaceNote: "operation not permitted"},
			policy: Policy{Mode: WorkspaceWrite, Network: Deny},
			err:    "the sandbox cannot be enforced: no network namespace (operation not permitted) and Landlock ABI 3 has no TCP rules (ABI 4 has)"},
		{name: "no way at all", support: Support{}, policy: Policy{Network: Deny},
			err: "the sandbox cannot be enforced: no network namespace and no Landlock to deny TCP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := plan(tt.support, tt.policy, sc)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || !errors.Is(err, ErrUnenforceable) {
					t.Fatalf("plan = %+v, %v; want the error %q", got, err, tt.err)
				}
				if tt.support.Check(tt.policy) == nil {
					t.Error("Check passes a policy plan refuses")
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("plan = %+v, %v\nwant %+v", got, err, tt.want)
			}
			if err := tt.support.Check(tt.policy); err != nil {
				t.Errorf("Check = %v for a policy plan accepts", err)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, m := range []Mode{Off, WorkspaceWrite, ReadOnly} {
		if got, err := ParseMode(m.String()); got != m || err != nil {
			t.Errorf("ParseMode(%q) = %v, %v", m, got, err)
		}
	}
	for _, n := range []Network{Allow, Deny} {
		if got, err := ParseNetwork(n.String()); got != n || err != nil {
			t.Errorf("ParseNetwork(%q) = %v, %v", n, got, err)
		}
	}
	if _, err := ParseMode("workspace"); err == nil || err.Error() != `unknown sandbox mode "workspace" (want off, workspace-write, read-only)` {
		t.Errorf("ParseMode(workspace) error %v", err)
	}
	if _, err := ParseNetwork("none"); err == nil || err.Error() != `unknown sandbox network "none" (want allow, deny)` {
		t.Errorf("ParseNetwork(none) error %v", err)
	}
}
