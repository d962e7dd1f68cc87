package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestRulesetAttr(t *testing.T) {
	writes := setup{ConfineWrites: true}
	both := setup{ConfineWrites: true, DenyTCP: true}
	tests := []struct {
		name string
		abi  int
		st   setup
		want unix.LandlockRulesetAttr
		err  string // "" when the kernel can enforce st
	}{
		{name: "writes on ABI 3", abi: 3, st: writes, want: unix.LandlockRulesetAttr{Handled_access_fs: dirWrites}},
		{name: "a later ABI handles the same rights", abi: 7, st: writes, want: unix.LandlockRulesetAttr{Handled_access_fs: dirWrites}},
		{name: "writes and TCP on ABI 4", abi: 4, st: both, want: unix.LandlockRulesetAttr{Handled_access_fs: dirWrites, Handled_access_net: tcp}},
		{name: "TCP alone", abi: 4, st: setup{DenyTCP: true}, want: unix.LandlockRulesetAttr{Handled_access_net: tcp}},
		{name: "ABI 2 cannot stop truncation", abi: 2, st: writes,
			err: "landlock: this kernel's ABI 2 cannot enforce truncation (ABI 3 can)"},
		{name: "ABI 1 cannot stop moves between directories", abi: 1, st: writes,
			err: "landlock: this kernel's ABI 1 cannot enforce moving files between directories (ABI 2 can)"},
		{name: "ABI 3 has no TCP rules", abi: 3, st: both, err: "landlock: this kernel's ABI 3 cannot enforce TCP connect and bind (ABI 4 can)"},
		{name: "no Landlock", abi: 0, st: writes, err: "landlock: this kernel has no Landlock"},
		{name: "nothing to enforce", abi: 7, st: setup{NetNS: true}, err: "landlock: nothing to enforce"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rulesetAttr(tt.abi, tt.st)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("rulesetAttr = %+v, %v; want the error %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("rulesetAttr = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestHandledRightsNeedABI3 checks that every right the sandbox handles is one
// ABI 3 knows besides TCP's, so that laterRights names all the newer ones
// and the ABI 3 the plan asks for writes is enough.
func TestHandledRightsNeedABI3(t *testing.T) {
	const abi3FS = unix.LANDLOCK_ACCESS_FS_TRUNCATE<<1 - 1 // ABI 3's rights are the bits up to truncate's
	if dirWrites&^abi3FS != 0 {
		t.Errorf("dirWrites %#x has rights newer than ABI 3 (%#x)", dirWrites, dirWrites&^abi3FS)
	}
	if fileWrites&^dirWrites != 0 {
		t.Errorf("fileWrites %#x is not within dirWrites", fileWrites)
	}
}
