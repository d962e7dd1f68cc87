package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// ToolResult is what a tool returns: content for the model, details for the UI.
type ToolResult struct {
	Content []Content
	Details any
	IsError bool
	// Terminate ends the run after this batch instead of asking the model
	// again (the user denied the call); input queued meanwhile still runs.
	Terminate bool
}

// TextResult returns a result holding one text block.
func TextResult(text string) ToolResult { return ToolResult{Content: []Content{Text(text)}} }

// ErrorResult returns an error result the model can read.
func ErrorResult(text string) ToolResult {
	return ToolResult{Content: []Content{Text(text)}, IsError: true}
}

// ToolUpdate reports the output of a running tool so far (not a delta). It may
// be called from any goroutine until Execute returns.
type ToolUpdate func(partial ToolResult)

// Tool is something the model can call.
//
// Execute runs on its own goroutine, possibly beside other tools of the same
// batch. Its arguments were validated against Spec().Parameters. It must return
// soon after ctx is cancelled (abort), ending any process it started. A returned
// error becomes an error result with the error's text; a panic is recovered
// into one.
type Tool interface {
	Spec() ToolSpec
	Execute(ctx context.Context, callID string, args map[string]any, update ToolUpdate) (ToolResult, error)
}

// ToolSet is a run's tools with their argument schemas. A schema is
// compiled when its tool is first called, not when the set is made: most
// runs call few of their tools, and compiling every schema at start-up cost
// each `steer run` about a millisecond and a half (issue 16).
type ToolSet struct {
	tools  []Tool
	byName map[string]*toolEntry
}

// toolEntry is one tool and its schema, compiled once on first use; tools of
// one batch validate their arguments in parallel.
type toolEntry struct {
	tool   Tool
	spec   ToolSpec
	once   sync.Once
	schema *jsonschema.Resolved
	err    error // the schema did not compile
}

// NewToolSet makes a set of tools; it fails on a duplicate name or a schema
// that is not JSON. A schema that is JSON but not a valid JSON Schema is
// reported by Validate, as the tool's error, when the tool is called.
func NewToolSet(tools ...Tool) (*ToolSet, error) {
	s := &ToolSet{byName: make(map[string]*toolEntry, len(tools))}
	for _, t := range tools {
		spec := t.Spec()
		if _, dup := s.byName[spec.Name]; dup {
			return nil, fmt.Errorf("tool %q is defined twice", spec.Name)
		}
		if len(spec.Parameters) > 0 && !json.Valid(spec.Parameters) {
			return nil, fmt.Errorf("tool %q: schema is not JSON", spec.Name)
		}
		s.tools = append(s.tools, t)
		s.byName[spec.Name] = &toolEntry{tool: t, spec: spec}
	}
	return s, nil
}

// compiled is the entry's schema, compiling it on first use.
func (e *toolEntry) compiled() (*jsonschema.Resolved, error) {
	e.once.Do(func() { e.schema, e.err = compileSchema(e.spec) })
	return e.schema, e.err
}

// compileSchema resolves the tool's schema (JSON Schema 2020-12, or
// draft-07 when it says so); NewToolSet made sure it is JSON.
func compileSchema(spec ToolSpec) (*jsonschema.Resolved, error) {
	raw := spec.Parameters
	if len(raw) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	resolved, err := CompileSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("tool %q: schema does not compile: %w", spec.Name, err)
	}
	return resolved, nil
}

// CompileSchema reads and resolves the JSON Schema raw, for checking
// values against (ValidateJSON): a tool's parameters here, an MCP tool's
// outputSchema in agent/mcp.
func CompileSchema(raw json.RawMessage) (*jsonschema.Resolved, error) {
	var schema jsonschema.Schema
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, err
	}
	return schema.Resolve(nil)
}

// ValidateJSON checks v, as its JSON reads, against schema: the round
// trip makes the validator see plain JSON values, whatever Go types v
// holds.
func ValidateJSON(schema *jsonschema.Resolved, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	var inst any
	if err := json.Unmarshal(raw, &inst); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return schema.Validate(inst)
}

// Specs lists what the model is told about the tools, in order.
func (s *ToolSet) Specs() []ToolSpec {
	if s == nil {
		return nil
	}
	specs := make([]ToolSpec, len(s.tools))
	for i, t := range s.tools {
		specs[i] = t.Spec()
	}
	return specs
}

// Lookup returns the tool named name.
func (s *ToolSet) Lookup(name string) (Tool, bool) {
	if s == nil {
		return nil, false
	}
	e, ok := s.byName[name]
	if !ok {
		return nil, false
	}
	return e.tool, true
}

// Validate checks args against the named tool's schema and returns a message
// the model can act on when they do not fit, or the tool's own fault when
// its schema does not compile.
func (s *ToolSet) Validate(name string, args map[string]any) error {
	e, ok := s.byName[name]
	if !ok {
		return fmt.Errorf("tool %q not found", name)
	}
	schema, err := e.compiled()
	if err != nil {
		return err
	}
	if err := ValidateJSON(schema, args); err != nil {
		return fmt.Errorf("invalid arguments for %s: %s", name, oneLine(err.Error()))
	}
	return nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
