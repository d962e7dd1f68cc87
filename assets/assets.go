// Package assets holds steer's embedded files: default config, system prompt,
// glamour styles, demo scenarios and the offline (scripted) models.
//
// The files are compiled into the binary so that steer runs with nothing on
// disk: the scripted provider plays the scenarios by name, and the runner
// starts every session with the system prompt unless the config overrides it.
package assets

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed system_prompt.md
var systemPrompt string

//go:embed scenarios/*.json
var scenarios embed.FS

// SystemPrompt returns the default system prompt of a coding session.
func SystemPrompt() string { return systemPrompt }

// Scenarios returns the demo scenarios of the scripted provider, one
// `<name>.json` file each at the root of the returned file system.
func Scenarios() fs.FS {
	sub, err := fs.Sub(scenarios, "scenarios")
	if err != nil { // cannot happen: the directory is embedded above
		return scenarios
	}
	return sub
}

// ScenarioNames lists the embedded scenarios by name (file name without
// `.json`), sorted.
func ScenarioNames() []string {
	entries, err := fs.ReadDir(Scenarios(), ".")
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
