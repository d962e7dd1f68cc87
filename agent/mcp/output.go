package mcp

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
)

// A tool that declares an outputSchema promises structuredContent that
// fits it; the specification has clients validate it (the SDK does not).
// A result that breaks the promise reaches the model as an error, with
// what the server sent, rather than as data the model would trust.

// checkOutput is res as the model reads it, checked against the tool's
// outputSchema; error results are not checked.
func (t *Tool) checkOutput(res *sdk.CallToolResult) agent.ToolResult {
	out := result(res)
	if res.IsError || t.def.OutputSchema == nil {
		return out
	}
	var problem string
	switch schema, err := t.outputSchema(); {
	case err != nil:
		problem = fmt.Sprintf("its outputSchema is not a JSON Schema steer can use: %v", err)
	case res.StructuredContent == nil:
		problem = "it declares an outputSchema but returned no structuredContent"
	default:
		if err := agent.ValidateJSON(schema, res.StructuredContent); err != nil {
			problem = fmt.Sprintf("its structuredContent does not match its outputSchema: %v", err)
		}
	}
	if problem == "" {
		return out
	}
	note := agent.Text(fmt.Sprintf("mcp server %s, tool %s: %s", t.srv.cfg.Name, t.def.Name, problem))
	return agent.ToolResult{IsError: true, Content: append([]agent.Content{note}, out.Content...)}
}

// outputSchema is the tool's outputSchema resolved, once.
func (t *Tool) outputSchema() (*jsonschema.Resolved, error) {
	t.outOnce.Do(func() {
		raw, err := json.Marshal(t.def.OutputSchema)
		if err == nil {
			t.out, err = agent.CompileSchema(raw)
		}
		t.outErr = err
	})
	return t.out, t.outErr
}
