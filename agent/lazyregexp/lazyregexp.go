// Package lazyregexp is a regular expression compiled on first use.
//
// Package initialisation runs in every steer process, whichever of its parts
// the process uses: a pattern compiled there costs `steer run` its compile
// time, its garbage, and the page of the binary that holds the package's
// init code, for a pattern only the TUI matches. A Regexp is a composite
// literal of a constant, so declaring one runs no code at all.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is Expr, compiled by the first Get. Declare it as a package
// variable, var r = lazyregexp.Regexp{Expr: `...`}, and do not copy it.
type Regexp struct {
	Expr string

	once sync.Once
	re   *regexp.Regexp
	err  error
}

// Get returns the compiled expression. Like regexp.MustCompile, it panics,
// at every call, if Expr does not compile: a pattern in the source is a
// programming error.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re, r.err = regexp.Compile(r.Expr) })
	if r.err != nil {
		panic("lazyregexp: " + r.err.Error())
	}
	return r.re
}
