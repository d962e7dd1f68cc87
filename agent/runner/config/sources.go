package config

import (
	"encoding/json"
	"fmt"
)

// Setting is one value of the merged configuration and where it came from,
// as `steer config` and /config show it. A value is a leaf of the merged
// tree: a string, number, boolean, list or empty object (objects merge, so
// their members are settings of their own).
type Setting struct {
	// Path is the value's JSON path, like "providers.local.baseURL".
	Path string `json:"path"`
	// Value is the JSON value, with every secret in it (API keys, header
	// and environment values, OAuth client secrets) replaced by "(set)" or
	// "(unset)": the value is never shown.
	Value any `json:"value"`
	// Secret says the whole value is one: Value is "(set)" or "(unset)".
	Secret bool `json:"secret,omitempty"`
	// Source is the file whose value is in effect; Sources every applied
	// file that sets the path, lowest layer first (Source last).
	Source  string   `json:"source"`
	Sources []string `json:"sources"`
}

// The text a secret shows as.
const (
	SecretSet   = "(set)"
	SecretUnset = "(unset)"
)

// Settings are the merged configuration's values in file order, each with
// its sources; none when the environment alone configures steer.
func (c *Config) Settings() []Setting { return c.settings }

// settingsOf lists the values of the layers use picks, merged.
func settingsOf(layers []Layer, use func(Layer) bool) []Setting {
	var root *node
	sources := map[string][]string{}
	for _, l := range layers {
		if !use(l) {
			continue
		}
		root = merge(root, l.root)
		walkPaths(l.root, "", func(path string) { sources[path] = append(sources[path], l.Path) })
	}
	var out []Setting
	var leaves func(n *node, path string, keys []string)
	leaves = func(n *node, path string, keys []string) {
		if n.kind == kindObject && len(n.keys) > 0 {
			for _, f := range n.keys {
				leaves(f.val, joinPath(path, f.name), append(keys, f.name))
			}
			return
		}
		s := Setting{Path: path, Value: masked(n, keys), Source: n.file, Sources: sources[path]}
		s.Secret = secretKey(keys)
		out = append(out, s)
	}
	if root != nil {
		leaves(root, "", nil)
	}
	return out
}

// walkPaths calls fn with the path of every value of the tree but the root.
func walkPaths(n *node, path string, fn func(string)) {
	if path != "" {
		fn(path)
	}
	if n.kind == kindObject {
		for _, f := range n.keys {
			walkPaths(f.val, joinPath(path, f.name), fn)
		}
	}
}

// secretKey reports whether the value at keys (the object keys of its
// path, list indexes left out) is a secret: a profile's apiKey, an OAuth
// clientSecret, any header's or environment variable's value. Headers and
// env are hidden whole: which of them carry a token is not knowable.
func secretKey(keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	switch keys[len(keys)-1] {
	case "apiKey", "clientSecret":
		return true
	}
	if len(keys) >= 2 {
		switch keys[len(keys)-2] {
		case "headers", "env":
			return true
		}
	}
	return false
}

// masked is n as a JSON value with its secrets hidden.
func masked(n *node, keys []string) any {
	if secretKey(keys) {
		if n.kind == kindNull || n.kind == kindString && n.str == "" {
			return SecretUnset
		}
		return SecretSet
	}
	switch n.kind {
	case kindObject:
		m := make(map[string]any, len(n.keys))
		for _, f := range n.keys {
			m[f.name] = masked(f.val, append(keys, f.name))
		}
		return m
	case kindArray:
		l := make([]any, len(n.elems))
		for i, e := range n.elems {
			l[i] = masked(e, keys)
		}
		return l
	case kindString:
		return n.str
	case kindNumber:
		return n.num
	case kindBool:
		return n.b
	}
	return nil
}

// ValueText is a setting's value on one line, as JSON; a secret shows as
// (set) or (unset), unquoted.
func (s Setting) ValueText() string {
	if s.Secret {
		return s.Value.(string)
	}
	data, err := json.Marshal(s.Value)
	if err != nil {
		return fmt.Sprint(s.Value)
	}
	return string(data)
}
