package mention

import (
	"strings"

	"github.com/sahilm/fuzzy"
)

// Resource is an MCP server's resource, or resource template, as the
// finder offers it: "@server:uri". The runner fills the list from the
// servers; this package only matches it.
type Resource struct {
	Server string
	// URI is the resource's, or the template's (with its {var} parts).
	URI string
	// Name is what the server calls it, shown beside the mention.
	Name     string
	Template bool
}

// Ref is the resource as a mention writes it, without the "@".
func (r Resource) Ref() string { return r.Server + ":" + r.URI }

// Typed is what picking the resource puts in the text after the "@": the
// whole reference, or for a template its start up to its first variable,
// for the user to fill in ("files:file:///").
func (r Resource) Typed() string {
	if !r.Template {
		return r.Ref()
	}
	ref := r.Ref()
	if i := strings.IndexByte(ref, '{'); i >= 0 {
		return ref[:i]
	}
	return ref
}

// MatchResources finds at most limit of rs for query q (what follows the
// "@") with the files' scorer: best first, the shorter among equals, then
// in the servers' order; "" matches none (the top level lists files).
func MatchResources(rs []Resource, q string, limit int) []Match {
	if q == "" || len(rs) == 0 {
		return nil
	}
	refs := make([]string, len(rs))
	for i, r := range rs {
		refs[i] = r.Ref()
	}
	best := top(fuzzy.FindNoSort(q, refs), limit)
	out := make([]Match, len(best))
	for i, f := range best {
		r := rs[f.Index]
		out[i] = Match{Path: refs[f.Index], Matched: f.MatchedIndexes, Resource: &r}
	}
	return out
}
