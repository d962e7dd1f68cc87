package headless

import (
	"runtime/debug"
	"strings"
)

// VersionText is what `steer version` prints: the module version (or
// "devel" for a build from a working tree), the VCS revision with its time
// and whether the tree was modified, and the Go version, as far as the
// binary records them. info and ok are debug.ReadBuildInfo's results.
func VersionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "steer (version unknown: built without module information)\n"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var details []string
	if rev != "" {
		details = append(details, "rev "+rev[:min(len(rev), 12)])
	}
	if when != "" {
		details = append(details, when)
	}
	if modified {
		details = append(details, "modified")
	}
	var b strings.Builder
	b.WriteString("steer " + v)
	if len(details) > 0 {
		b.WriteString(" (" + strings.Join(details, ", ") + ")")
	}
	if info.GoVersion != "" {
		b.WriteString(" " + info.GoVersion)
	}
	b.WriteString("\n")
	return b.String()
}
