// Package engines is steer's pluggable context engines and the quarantine
// that keeps a misbehaving one from taking the runtime down (SPEC §6.4).
//
// # Engines
//
// A context engine decides what each request sends (Assemble) and how the
// session shrinks when it outgrows the window (Compact); it may also follow
// the session as it grows (Bootstrap, Ingest, AfterTurn). The contract is the
// Engine interface; its request and result types are plain JSON so that an
// engine can live in another process.
//
//   - Legacy is the built-in engine, "legacy". Its Assemble and Compact are
//     functions the runner supplies, so this package does not depend on how
//     the guard and the compaction are built.
//   - External is an engine that is a program: started on first use from its
//     configured command, spoken to in JSON lines over stdin and stdout (the
//     protocol is assets/context-engines.md), its stderr going to a writer
//     the caller supplies, its process group killed on Reset and Close.
//
// A Registry holds the engines by name; config's agent.contextEngine selects
// one, "legacy" by default.
//
// # Quarantine
//
// Every call the runner makes goes through a Guard, which applies the seed's
// rules:
//
//   - the caller's context is done → return its error; an abort is the
//     caller's intent, not the engine's instability, and quarantines nothing;
//   - the engine is quarantined → answer with the default engine's method;
//   - otherwise call it; an error, a panic, a timeout, a crashed process or
//     output that breaks the contract quarantines it (engine, method, reason,
//     error, time, count; the first failure is the one kept) and the default
//     engine answers instead.
//
// While an engine is quarantined even its Info is the default engine's, so
// nothing downstream keeps routing to it. Quarantines are kept in a
// QuarantineStore (the shared database), so a restart does not silently
// re-trust a crashing engine and every steer process sees them; the Guard
// reports each one through a callback, for the runner's quarantine event.
package engines
