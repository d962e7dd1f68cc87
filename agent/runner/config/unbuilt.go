package config

import "strings"

// unbuiltKey is a key of SPEC §11 whose feature steer does not have yet. A
// file that sets one is refused, never accepted and ignored: a setting either
// works or says that it does not. Wiring a feature removes its entry; the
// key is already parsed and checked into Config.
type unbuiltKey struct {
	path, why string
	// works is the one value that is accepted, being what steer does
	// anyway; "" when there is none.
	works string
}

// unbuiltKeys are the keys of SPEC §11 whose feature has not landed: a key
// the spec gains before its feature goes here until the feature lands.
var unbuiltKeys = []unbuiltKey{}

// refuseUnbuilt returns the error of the first unbuilt key the file sets.
// It runs after the checks of the values, so a bad value still gets its own
// message.
func (b *builder) refuseUnbuilt(root *node) error {
	for _, k := range b.unbuilt {
		n := root
		for name := range strings.SplitSeq(k.path, ".") {
			n = n.get(name)
		}
		switch {
		case !sets(n):
		case k.works != "" && n.kind == kindString && n.str == k.works:
		case n.kind == kindString:
			return b.errAt(k.path, "%q is not supported yet: %s", n.str, k.why)
		default:
			return b.errAt(k.path, "not supported yet: %s", k.why)
		}
	}
	return nil
}

// sets reports whether a value sets anything: null and empty objects or
// arrays do not.
func sets(n *node) bool {
	switch {
	case n == nil || n.kind == kindNull:
		return false
	case n.kind == kindObject:
		return len(n.keys) > 0
	case n.kind == kindArray:
		return len(n.elems) > 0
	}
	return true
}
