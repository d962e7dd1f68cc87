package headless

import (
	"runtime/debug"
	"testing"
)

func TestVersionText(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "7aced77f1b2c3d4e5f60718293a4b5c6d7e8f901"},
		{Key: "vcs.time", Value: "2026-12-01T00:47:59Z"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"a working tree", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			true, "steer devel (rev 7aced77f1b2c, 2026-12-01T00:47:59Z, modified) go1.26.8\n"},
		{"a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.1"}},
			true, "steer v0.3.1 go1.26.8\n"},
		{"no version, short revision", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}},
			true, "steer devel (rev abc)\n"},
		{"no build information", nil, false, "steer (version unknown: built without module information)\n"},
	}
	for _, tt := range tests {
		if got := VersionText(tt.info, tt.ok); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
