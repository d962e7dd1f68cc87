// Package persistence keeps steer's durable state — sessions, their
// transcripts, pending inputs and run records — in one SQLite database inside a
// locked state directory.
//
// # The state directory
//
// Open creates the directory (0700) with its logs/ subdirectory and takes an OS
// file lock on steer.lock, so that one steer process owns the directory at a
// time; a second opener gets a *LockedError naming the owner's pid. The kernel
// releases the lock when the owning process dies, however it dies. Read-only
// commands open with Options.ReadOnly, which takes no lock and never writes.
//
// # The database
//
// steer.db is opened through modernc.org/sqlite with one writer connection
// (WAL, synchronous NORMAL, foreign keys, BEGIN IMMEDIATE) and a small pool of
// read-only connections. The connection pragmas are read back at Open and a
// difference is an error. Writes that meet SQLITE_BUSY or SQLITE_LOCKED are
// retried a few times. A background goroutine checkpoints the WAL on a third
// connection every few dozen commits, so that an append never pays for a
// checkpoint. A write is durable against a crash of the process when its
// method returns (synchronous NORMAL: not necessarily against power loss).
// Times are stored as Unix milliseconds and come back in UTC.
//
// Before anything is written, an existing file is checked: a file that is not
// a SQLite database gives a *CorruptError and one whose schema is newer than
// this binary's gives a *NewerSchemaError; neither file is ever modified.
//
// # Migrations
//
// The schema is the ordered list of SQL files in migrations/, named
// NNNN_what.sql and numbered from 0001 without gaps. Open applies the ones the
// database has not seen, each in its own transaction that also sets PRAGMA
// user_version to the file's number. Adding a table later means adding the next
// file (say 0002_auth_profiles.sql); files that have shipped are never edited.
//
// # Writer fencing
//
// A run that is admitted to a session calls BeginRun, which makes it the
// session's active writer and supersedes any earlier run. Every transcript
// write (AppendMessage, RewriteTranscript, RepairSession) names the writer it
// expects, and the check happens inside the write's transaction: a superseded
// run gets ErrStaleWriter and commits nothing.
//
// # Pending inputs
//
// Inputs typed during a run are stored by AddPendingInput before the caller
// acknowledges them, and the append of the user message that carries the
// item's id (agent.Message.QueueItemID) deletes the item in the same
// transaction, so a crash neither loses nor duplicates one.
//
// # Repair
//
// A transcript cut in the middle of a tool batch is repaired on load by
// appending error tool results for the calls that never finished and an
// aborted marker (see Repair). Tools are never run again.
package persistence
