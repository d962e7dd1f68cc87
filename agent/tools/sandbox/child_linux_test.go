package sandbox

import "testing"

func TestCheckOwnNetNS(t *testing.T) {
	own, err := netNSInode()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkOwnNetNS(own); err == nil {
		t.Error("a child on the host's network namespace passes")
	}
	if err := checkOwnNetNS(own + 1); err != nil {
		t.Errorf("a child in a namespace of its own is refused: %v", err)
	}
}
