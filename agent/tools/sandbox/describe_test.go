package sandbox

import (
	"reflect"
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	full := Support{LandlockABI: 7, NetNamespace: true}
	noNS := Support{LandlockABI: 7, NetNamespaceNote: "operation not permitted"}
	refused := func(mode Mode, network Network) string {
		return "bash refuses every command: this kernel cannot enforce sandbox mode " + mode.String() + ", network " + network.String()
	}
	tests := []struct {
		name    string
		support Support
		policy  Policy
		want    []string
	}{
		{name: "off", support: full, policy: Policy{}, want: []string{"no sandbox: the sandbox is off"}},
		{name: "workspace-write", support: full, policy: Policy{Mode: WorkspaceWrite},
			want: []string{"writes: workspace + temp (Landlock ABI 7)", notCovered, "network: allowed"}},
		{name: "workspace-write with paths, network denied", support: full,
			policy: Policy{Mode: WorkspaceWrite, Network: Deny, Writable: []string{"~/.cache", "/opt"}},
			want:   []string{"writes: workspace + temp + 2 configured paths (Landlock ABI 7)", notCovered, "network: denied (network namespace)"}},
		{name: "read-only", support: full, policy: Policy{Mode: ReadOnly},
			want: []string{"writes: temp only (Landlock ABI 7)", notCovered, "network: allowed"}},
		{name: "read-only with a path", support: full, policy: Policy{Mode: ReadOnly, Writable: []string{"/opt"}},
			want: []string{"writes: temp + 1 configured path (Landlock ABI 7)", notCovered, "network: allowed"}},
		{name: "network only", support: full, policy: Policy{Network: Deny},
			want: []string{"writes: not confined (sandbox mode off)", "network: denied (network namespace)"}},
		{name: "network by Landlock", support: noNS, policy: Policy{Mode: WorkspaceWrite, Network: Deny},
			want: []string{"writes: workspace + temp (Landlock ABI 7)", notCovered,
				"network: TCP connect and bind denied (Landlock ABI 7); UDP and Multipath TCP are not"}},
		{name: "no Landlock", support: Support{NetNamespace: true}, policy: Policy{Mode: WorkspaceWrite},
			want: []string{"no sandbox: this kernel has no Landlock", "network: allowed", refused(WorkspaceWrite, Allow)}},
		{name: "no Landlock, network by namespace", support: Support{NetNamespace: true}, policy: Policy{Mode: WorkspaceWrite, Network: Deny},
			want: []string{"no sandbox: this kernel has no Landlock", "network: denied (network namespace)", refused(WorkspaceWrite, Deny)}},
		{name: "old Landlock", support: Support{LandlockABI: 1, NetNamespace: true}, policy: Policy{Mode: ReadOnly},
			want: []string{"no sandbox: this kernel's Landlock ABI 1 cannot confine truncation (ABI 3 can)", "network: allowed", refused(ReadOnly, Allow)}},
		{name: "network cannot be denied", support: Support{LandlockABI: 3}, policy: Policy{Mode: WorkspaceWrite, Network: Deny},
			want: []string{"writes: workspace + temp (Landlock ABI 3)", notCovered,
				"network: not denied: no network namespace and Landlock ABI 3 has no TCP rules (ABI 4 has)", refused(WorkspaceWrite, Deny)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.support.Describe(tt.policy)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Describe =\n%q\nwant\n%q", got, tt.want)
			}
			// What Describe says and what Command does agree.
			says := strings.HasPrefix(got[len(got)-1], "bash refuses every command")
			if err := tt.support.Check(tt.policy); says != (err != nil) {
				t.Errorf("Describe says refused %v, Check says %v", says, err)
			}
		})
	}
}
