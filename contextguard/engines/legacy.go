package engines

import (
	"context"
	"errors"
)

// LegacyName is the built-in engine's name, and the default of the
// agent.contextEngine setting.
const LegacyName = "legacy"

// LegacyVersion is the built-in engine's version, for Info.
const LegacyVersion = "1"

// AssembleFunc is the built-in assembly the runner supplies to Legacy.
type AssembleFunc func(ctx context.Context, req AssembleRequest) (AssembleResult, error)

// CompactFunc is the built-in compaction the runner supplies to Legacy.
type CompactFunc func(ctx context.Context, req CompactRequest) (CompactResult, error)

// ErrNoCompaction is what Legacy's Compact returns when it was given no
// compaction.
var ErrNoCompaction = errors.New("the legacy context engine was built without a compaction")

// PassThrough is the assembly of the legacy engine: the messages as they
// are. Trimming them to the window is the pre-request guard's job, which
// runs after every engine.
func PassThrough(_ context.Context, req AssembleRequest) (AssembleResult, error) {
	return AssembleResult{Messages: req.Messages}, nil
}

// Legacy is the built-in engine: it assembles with assemble and compacts
// with compact (the runner's built-in compaction); Bootstrap, Ingest and
// AfterTurn have nothing to do. A nil assemble is PassThrough; a nil
// compact makes Compact fail with ErrNoCompaction.
func Legacy(assemble AssembleFunc, compact CompactFunc) Engine {
	if assemble == nil {
		assemble = PassThrough
	}
	return legacy{assemble: assemble, compact: compact}
}

type legacy struct {
	assemble AssembleFunc
	compact  CompactFunc
}

func (legacy) Info(context.Context) (Info, error) {
	return Info{Name: LegacyName, Version: LegacyVersion}, nil
}

func (legacy) Bootstrap(context.Context, BootstrapRequest) error { return nil }

func (legacy) Ingest(context.Context, IngestRequest) error { return nil }

func (l legacy) Assemble(ctx context.Context, req AssembleRequest) (AssembleResult, error) {
	return l.assemble(ctx, req)
}

func (l legacy) Compact(ctx context.Context, req CompactRequest) (CompactResult, error) {
	if l.compact == nil {
		return CompactResult{}, ErrNoCompaction
	}
	return l.compact(ctx, req)
}

func (legacy) AfterTurn(context.Context, AfterTurnRequest) error { return nil }
