package engines

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// UnknownEngineError is returned for a name no engine is registered under.
type UnknownEngineError struct {
	Name string
	// Known are the registered names, the default first.
	Known []string
}

func (e *UnknownEngineError) Error() string {
	return fmt.Sprintf("unknown context engine %q (known: %s)", e.Name, strings.Join(e.Known, ", "))
}

// Registry holds the engines by name: the default engine (legacy) and the
// ones registered after it, each with its time limit. It is safe for
// concurrent use.
type Registry struct {
	def Engine

	mu      sync.Mutex
	entries map[string]entry
}

type entry struct {
	engine  Engine
	timeout time.Duration
}

// NewRegistry returns a registry whose default engine, registered under
// LegacyName, is def (Legacy with the runner's assembly and compaction).
func NewRegistry(def Engine) *Registry {
	return &Registry{def: def, entries: map[string]entry{}}
}

// Register adds e under name, with timeout bounding each of its calls (0
// is DefaultTimeout). The name must be new, and not LegacyName.
func (r *Registry) Register(name string, e Engine, timeout time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch _, taken := r.entries[name]; {
	case name == "":
		return errors.New("register a context engine: empty name")
	case name == LegacyName:
		return fmt.Errorf("register a context engine: %q is the built-in engine", LegacyName)
	case taken:
		return fmt.Errorf("register a context engine: %q is registered already", name)
	case e == nil:
		return fmt.Errorf("register context engine %q: no engine", name)
	}
	r.entries[name] = entry{engine: e, timeout: timeout}
	return nil
}

// Names lists the registered names: LegacyName, then the others sorted.
func (r *Registry) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string{LegacyName}, slices.Sorted(maps.Keys(r.entries))...)
}

// Default is the default engine.
func (r *Registry) Default() Engine { return r.def }

// Select returns the engine named name ("" is the default) behind its
// Guard, with the default engine answering in its place while it is
// quarantined; opts.Timeout is replaced by the engine's own. The default
// engine's Guard calls it directly, without a time limit. An unknown name
// is an *UnknownEngineError.
func (r *Registry) Select(name string, opts GuardOptions) (*Guard, error) {
	if name == "" || name == LegacyName {
		opts.Timeout = 0
		return NewGuard(LegacyName, r.def, nil, opts), nil
	}
	r.mu.Lock()
	e, ok := r.entries[name]
	r.mu.Unlock()
	if !ok {
		return nil, &UnknownEngineError{Name: name, Known: r.Names()}
	}
	opts.Timeout = e.timeout
	return NewGuard(name, e.engine, r.def, opts), nil
}

// Close closes every registered engine that is an io.Closer (External
// kills its process), returning the errors joined.
func (r *Registry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(r.entries)) {
		if c, ok := r.entries[name].engine.(io.Closer); ok {
			if err := c.Close(); err != nil {
				errs = append(errs, fmt.Errorf("close context engine %s: %w", name, err))
			}
		}
	}
	return errors.Join(errs...)
}
