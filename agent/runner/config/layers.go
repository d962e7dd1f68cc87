package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/steer-tui/steer/agent/llm"
)

// The layers, lowest first: the user's global file (DefaultPath), the
// workspace's project file (ProjectFile, in the workspace or its nearest
// ancestor, applied only once the workspace is trusted), then --config's
// file, which adds the top file layer rather than replacing the global one.
// Flags come above them all, where each is used (Config.Approval, …).
//
// Layers merge as JSON: objects merge key by key, anything else (a string,
// a number, a list) is replaced whole by the higher layer's value. Every
// value keeps the file and line it came from, so that an error names the
// file that has the mistake, and Settings names where each value came from.

// The kinds of layer, as `steer config` names them.
const (
	LayerGlobal   = "global"
	LayerProject  = "project"
	LayerExplicit = "--config"
)

// ProjectFile is the project config's path inside a workspace.
var ProjectFile = filepath.Join(".steer", "config.json")

// Files are the config files LoadFiles reads.
type Files struct {
	// Global is the user's file; "" means DefaultPath. It may be missing.
	Global string
	// Project is the workspace's file (FindProject), "" for none. It is
	// checked either way but applied only when ProjectTrusted.
	Project        string
	ProjectTrusted bool
	// Explicit is --config's file, "" for none; it must exist.
	Explicit string
}

// Layer is one config file that was found.
type Layer struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
	// Applied is false for a project file of an untrusted workspace; Note
	// then says why and what to do.
	Applied bool   `json:"applied"`
	Note    string `json:"note,omitempty"`
	// Keys are the top-level keys the file sets, in file order: what it
	// brings, for the trust question.
	Keys []string `json:"keys"`

	root *node
}

// UntrustedNote is a project layer's Note while its workspace is not
// trusted.
const UntrustedNote = "not applied: this workspace is not trusted (steer trust, or --trust-project for one run)"

// FindProject returns the project config of the workspace dir or of its
// nearest ancestor that has one, "" when none has.
func FindProject(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for {
		p := filepath.Join(dir, ProjectFile)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// LoadFiles reads the layered configuration, as Load does one file. Every
// file found is checked, an untrusted project file too: its mistakes are
// named even before the user trusts it, and trusting it cannot break steer.
func LoadFiles(f Files, env func(string) string, apis llm.APIs) (*Config, error) {
	global := f.Global
	if global == "" {
		if p, err := DefaultPath(); err == nil {
			global = p
		}
	}
	files := []layerFile{{kind: LayerGlobal, path: global, optional: true, applied: true}}
	if f.Project != "" {
		files = append(files, layerFile{kind: LayerProject, path: f.Project, applied: f.ProjectTrusted})
	}
	if f.Explicit != "" {
		files = append(files, layerFile{kind: LayerExplicit, path: f.Explicit, applied: true})
	}
	return loadLayers(files, &builder{env: env, apis: apis, catFn: catalogueOf(apis), unbuilt: unbuiltKeys})
}

// layerFile is a file to read as one layer.
type layerFile struct {
	kind, path string
	// optional: a missing file is no layer rather than an error.
	optional bool
	applied  bool
}

func loadLayers(files []layerFile, b *builder) (*Config, error) {
	var layers []Layer
	unapplied := false
	for _, f := range files {
		if f.path == "" {
			continue
		}
		l, err := readLayer(f)
		if errors.Is(err, fs.ErrNotExist) && f.optional {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !l.Applied {
			unapplied = true
			l.Note = UntrustedNote
		}
		layers = append(layers, l)
	}
	if unapplied {
		all := func(Layer) bool { return true }
		if _, err := b.fresh().build(layers, all); err != nil {
			return nil, err
		}
		if _, err := permissionsOf(layers, all); err != nil {
			return nil, err
		}
	}
	applied := func(l Layer) bool { return l.Applied }
	c, err := b.build(layers, applied)
	if err != nil {
		return nil, err
	}
	if c.Permissions, err = permissionsOf(layers, applied); err != nil {
		return nil, err
	}
	c.Layers = layers
	c.settings = settingsOf(layers, applied)
	return c, nil
}

// readLayer parses one file and decodes it alone, so that a mistake is
// found in the file that has it before layers merge (a duplicate key would
// merge away).
func readLayer(f layerFile) (Layer, error) {
	data, err := os.ReadFile(f.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && f.optional {
			return Layer{}, err
		}
		return Layer{}, fmt.Errorf("config: %w", err)
	}
	root, err := parse(f.path, withoutBOM(data))
	if err != nil {
		return Layer{}, err
	}
	var fc fileConfig
	if err := newDecoder(f.path).decode(root, reflect.ValueOf(&fc).Elem(), ""); err != nil {
		return Layer{}, err
	}
	l := Layer{Kind: f.kind, Path: f.path, Applied: f.applied, Keys: []string{}, root: root}
	for _, k := range root.keys {
		l.Keys = append(l.Keys, k.name)
	}
	return l, nil
}

// fresh is a builder like b that has built nothing yet.
func (b *builder) fresh() *builder {
	return &builder{env: b.env, apis: b.apis, catFn: b.catFn, unbuilt: b.unbuilt}
}

// build merges the layers use picks and builds their Config; with none,
// the environment alone configures steer.
func (b *builder) build(layers []Layer, use func(Layer) bool) (*Config, error) {
	var root *node
	var names []string
	for _, l := range layers {
		if use(l) {
			root = merge(root, l.root)
			names = append(names, l.Path)
		}
	}
	if root == nil {
		return b.fromEnvironment()
	}
	return b.fromTree(root, strings.Join(names, ", "))
}

// merge lays high over low: objects merge key by key, in low's order with
// high's new keys after; any other value of high replaces low's. Neither
// tree is changed.
func merge(low, high *node) *node {
	if low == nil || low.kind != kindObject || high.kind != kindObject {
		return high
	}
	out := *high
	out.keys = append([]field(nil), low.keys...)
	for _, f := range high.keys {
		i := indexOfKey(out.keys, f.name)
		if i < 0 {
			out.keys = append(out.keys, f)
			continue
		}
		out.keys[i] = field{name: f.name, line: f.line, val: merge(out.keys[i].val, f.val)}
	}
	return &out
}

func indexOfKey(fields []field, name string) int {
	for i, f := range fields {
		if f.name == name {
			return i
		}
	}
	return -1
}
