// Package persistence keeps steer's durable state — sessions, their
// transcripts, pending inputs, run records and the auth-profile ledger — in
// one SQLite database that every steer process on the machine shares.
//
// # The state directory
//
// Open creates the directory (0700) with its logs/ and sessions/
// subdirectories. Any number of steer processes may have it open at once:
// people run several agents side by side, and the session list, the run
// records and everything else in the database are shared by design — a
// session one process creates is listed by the others at once. Read-only
// commands open with Options.ReadOnly, which never writes anything and works
// while others write.
//
//	steer.db                 the database (with -wal and -shm beside it)
//	steer.db.migrate.lock    held by an Open while it checks and migrates
//	steer.db.writers.queue   the write gate's two locks (see below)
//	steer.db.writers.lock
//	sessions/<id>.lock       held by the session's owner
//	steer.lock               shared by every process; keeps out the steer
//	                         versions that locked the whole directory
//	logs/                    the processes' log files
//
// # Sessions have one owner
//
// A session is written by one process at a time. Its owner holds an OS lock
// on sessions/<id>.lock — an open-file-description lock on Linux, flock(2)
// elsewhere — which the kernel releases when the process dies, however it
// dies, so a session whose owner was killed can be claimed again at once
// (and repaired; see Repair). The owner also records its pid and host in the
// database, for messages: a process that tries to claim a session a live
// process owns gets a *OwnedError naming that pid and host. The lock is the
// truth and the record only a label: a record whose lock nobody holds is a
// dead owner's and is ignored.
//
// ClaimSession claims an existing session, CreateSession claims the session
// it creates, and BeginRun and AddPendingInput claim their session unless the
// store holds it already; a claim lasts until Claim.Release or Store.Close.
// ListSessions and Session report each session's live Owner;
// ListOptions.Unowned, LatestUnownedSession and ClaimLatestSession find the
// sessions nobody owns (`steer --continue`). Two stores in one process are two
// owners, exactly like two processes.
//
// Writer fencing (below) stays as the second line of defence inside a
// session.
//
// # The database
//
// steer.db is opened through modernc.org/sqlite with one writer connection
// (WAL, synchronous NORMAL, foreign keys, BEGIN IMMEDIATE, a 5 s busy
// timeout) and a small pool of read-only connections. The connection pragmas
// are read back at Open and a difference is an error. SQLite locks the file
// with open-file-description locks where they exist, so that closing some
// other descriptor of steer.db in this process cannot drop them.
//
// Write transactions are short and never wait on anything but the database:
// they hold the write lock of every process sharing the file. Every write
// begins IMMEDIATE, so a writer that finds another's transaction waits for the
// lock at BEGIN, where SQLite's busy handler applies, instead of failing when
// it would upgrade a read. Before that, writers queue at the write gate: an
// exclusive OS lock that the kernel hands to the next waiter the moment its
// holder lets go, with a second lock that keeps a writer that has just left
// from barging back in. SQLite's busy handler polls after 1, 2, 5 … 100 ms
// and lets an unlucky writer starve while others take turns; the gate keeps
// appends from several busy processes within milliseconds. The gate only
// orders: SQLite's locking stays the guarantee, and a writer that cannot use
// the gate within 2 s goes on without it. Writes that still meet
// SQLITE_BUSY or SQLITE_LOCKED are retried a few times and then fail with
// ErrBusy, which the caller reports as a failed save; nothing is written
// then, and nothing is ever lost silently.
//
// A background goroutine checkpoints the WAL on a third connection every few
// dozen commits, so that an append never pays for a checkpoint. With several
// processes writing, a checkpoint rarely finds a moment when nobody commits,
// and the WAL only starts over after one has copied every frame; so when the
// WAL grows past about 4 MB the checkpointer runs one more checkpoint inside
// the write gate, and the next writer starts the WAL over.
//
// A write is durable against a crash of the process when its method returns
// (synchronous NORMAL: not necessarily against power loss). Times are stored
// as Unix milliseconds and come back in UTC.
//
// Before anything is written, an existing file is checked: a file that is not
// a SQLite database gives a *CorruptError and one whose schema is newer than
// this binary's gives a *NewerSchemaError; neither file is ever modified. A
// newer steer may also migrate the database while this one has it open; every
// write checks the schema version inside its transaction and refuses with a
// *NewerSchemaError from then on.
//
// # Migrations
//
// The schema is the ordered list of SQL files in migrations/, named
// NNNN_what.sql and numbered from 0001 without gaps. Open applies the ones the
// database has not seen, each in its own transaction that also sets PRAGMA
// user_version to the file's number. Every read-write Open holds
// steer.db.migrate.lock exclusively while it checks the file and migrates, and
// only then: concurrent first opens of a fresh directory create the database
// once, and a process that finds a migration in progress waits for it (at
// most a minute) instead of meeting a half-migrated database. A read-only
// Open shares the lock while it checks. Adding a table later means adding the next
// file (say 0005_quarantines.sql); files that have shipped are never edited.
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
// # The auth-profile ledger
//
// Store.Ledger is failover's failure ledger (SPEC §5.3) on the table
// auth_profiles: one row per profile id holding a failover.ProfileState —
// statistics, counters and the cooldown and disabled windows, never a key.
// Every process on the directory reads and updates the same rows, so a
// profile rate-limited in one terminal is skipped in another, and a restart
// keeps the windows. Ledger.Update reads the row, applies the caller's
// function and writes the result in one immediate write transaction: updates
// from any number of processes serialise and none is lost (the function may
// run again when the transaction is retried, so it must be pure).
// Store.ProfileStates lists the ledger for the inspector and
// Store.ClearProfile ends a profile's windows. A read-only store loads and
// lists; its updates return ErrReadOnly.
//
// # Context-engine quarantines, lanes, runs and steering leases
//
// Store.EngineQuarantines keeps contextguard/engines' quarantines (migration
// 0005): Record merges a failure in one write transaction (the first
// failure's method, reason and error stay; counts add up across processes),
// so a restart or another process does not re-trust a crashing engine.
//
// Store.LanePublisher keeps this process's lane snapshot (migration 0007)
// behind a lock file lanes/<id>.lock, so that Store.LaneSnapshots in any
// process lists the running and waiting runs of every live one; the rows of
// a dead process are skipped and removed. ListRuns and RunAttempts are the
// run records and their attempts, for the trace and `steer inspect runs`.
//
// Sub-agents' answers reach their parent through the steering queue:
// EnqueueSteering stores an item for the parent's session; the parent's run
// leases the pending items (LeaseSteering), injects them, then acknowledges
// them (AckSteering) or releases them (ReleaseSteering); a lease older than
// StaleLease is taken again by the next run, so a crash loses no answer.
// Sessions record the session that started them (Session.ParentID,
// migration 0008).
//
// # The prompt history
//
// AppendPrompt keeps what the user sent from the editor, per workspace
// (migration 0015): its kind, its text as the editor held it and the pastes
// its placeholders stand for. Prompts lists a workspace's newest and
// SearchPrompts finds them by substring. Rows are only ever added, each in a
// write of its own, so steer processes in one workspace append side by side.
//
// # Repair
//
// A transcript cut in the middle of a tool batch is repaired on load by
// appending error tool results for the calls that never finished and an
// aborted marker (see Repair). Tools are never run again.
package persistence
