package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent/runner"
)

// rewindAnswer is the data of a rewind: the preview, and the result unless
// dryRun (null then).
type rewindAnswer struct {
	Preview runner.RewindPreview `json:"preview"`
	Result  *runner.RewindResult `json:"result"`
}

// rewind answers steer's rewind (issue 32), as `steer rewind` does:
// {to, code?, conversation?, dryRun?, skipChanged?} previews the rewind to
// before turn to (its index or its user message's id, a string or a
// number) and, without dryRun, carries it out at once; {redo:true} undoes
// the last rewind; {resume:"finish"|"rollback"} completes a restore that
// steer did not finish. A rewind fails while a run is active.
func (s *Server) rewind(ctx context.Context, c command) (any, error) {
	flags := map[string]bool{}
	for _, name := range []string{"code", "conversation", "dryRun", "skipChanged", "redo"} {
		v, err := c.optBool(name)
		if err != nil {
			return nil, err
		}
		flags[name] = v
	}
	resume, err := c.optString("resume")
	if err != nil {
		return nil, err
	}
	switch {
	case resume != "":
		if resume != "finish" && resume != "rollback" {
			return nil, fmt.Errorf(`"resume" must be "finish" or "rollback", got %q`, resume)
		}
		if err := s.rt.ResumeRewind(ctx, resume == "finish"); err != nil {
			return nil, busy(err, "resume a rewind")
		}
		return struct {
			Resumed string `json:"resumed"`
		}{resume}, nil
	case flags["redo"]:
		res, err := s.rt.Redo(ctx)
		if err != nil {
			return nil, busy(err, "redo")
		}
		return res, nil
	}
	to, err := c.turn("to")
	if err != nil {
		return nil, err
	}
	scope, err := runner.ScopeOf(flags["code"], flags["conversation"])
	if err != nil {
		return nil, errors.New(`"code" and "conversation" exclude each other: without either, both are rewound`)
	}
	p, err := s.rt.PreviewRewind(ctx, to, scope)
	if err != nil {
		return nil, err
	}
	if flags["dryRun"] {
		return rewindAnswer{Preview: p}, nil
	}
	res, err := s.rt.Rewind(ctx, p, runner.RewindOptions{SkipChanged: flags["skipChanged"]})
	if err != nil {
		return nil, busy(err, "rewind")
	}
	return rewindAnswer{Preview: p, Result: &res}, nil
}

// optBool returns a boolean field, false when absent or null.
func (c command) optBool(name string) (bool, error) {
	var v bool
	if !c.has(name) {
		return false, nil
	}
	if err := json.Unmarshal(c.fields[name], &v); err != nil {
		return false, fmt.Errorf("%q must be true or false", name)
	}
	return v, nil
}

// turn returns a required turn field: a string, or a whole number.
func (c command) turn(name string) (string, error) {
	if !c.has(name) {
		return "", fmt.Errorf("%s needs %q", c.typ, name)
	}
	var n json.Number
	if err := json.Unmarshal(c.fields[name], &n); err == nil {
		return n.String(), nil
	}
	return c.requiredString(name)
}
