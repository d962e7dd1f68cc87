-- 0007: the lanes of every live steer process (SPEC §4) and the leased
-- steering queue that carries sub-agent results to their parents (SPEC §7).
-- Times are Unix milliseconds, 0 for "not yet".

-- Lanes are per process; each process publishes a snapshot of its own here,
-- replacing its rows, so that `steer inspect lanes` in any terminal lists the
-- runs of every live process. A publisher holds an OS lock on
-- lanes/<process_id>.lock while it lives (the kernel drops it when the
-- process dies, however it dies): rows whose lock nobody holds are a dead
-- process's, ignored by every listing and deleted by the next one that may
-- write.
CREATE TABLE lane_processes (
    process_id   TEXT    PRIMARY KEY,
    pid          INTEGER NOT NULL,
    host         TEXT    NOT NULL,
    started_at   INTEGER NOT NULL,
    -- When the snapshot now stored was taken.
    published_at INTEGER NOT NULL
);

-- The lanes of a snapshot, in its order.
CREATE TABLE lane_states (
    process_id TEXT    NOT NULL REFERENCES lane_processes (process_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    session_id TEXT    NOT NULL DEFAULT '',
    cap        INTEGER NOT NULL,
    PRIMARY KEY (process_id, seq)
);

-- The tasks running and waiting in each lane, each list in its order.
CREATE TABLE lane_tasks (
    process_id  TEXT    NOT NULL,
    lane_seq    INTEGER NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('running', 'waiting')),
    seq         INTEGER NOT NULL,
    task_id     TEXT    NOT NULL,
    session_id  TEXT    NOT NULL,
    "trigger"   TEXT    NOT NULL DEFAULT '',
    priority    TEXT    NOT NULL,
    sub_agent   INTEGER NOT NULL DEFAULT 0,
    enqueued_at INTEGER NOT NULL,
    started_at  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (process_id, lane_seq, state, seq),
    FOREIGN KEY (process_id, lane_seq) REFERENCES lane_states (process_id, seq) ON DELETE CASCADE
);

-- Results for a parent session's run, delivered as steering (SPEC §7): an
-- item is pending while lease_id is NULL; a lease marks it in progress; a
-- delivered item is deleted (ack), an undelivered one released (lease_id back
-- to NULL). A lease older than five minutes is stale: its items count as
-- pending again and the next lease takes them.
CREATE TABLE steering_items (
    item_id    TEXT    PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    -- Where the item came from, e.g. the child session whose result it is.
    source     TEXT    NOT NULL DEFAULT '',
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    lease_id   TEXT,
    leased_at  INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX steering_items_by_session ON steering_items (session_id, created_at);
CREATE INDEX steering_items_by_lease ON steering_items (lease_id) WHERE lease_id IS NOT NULL;
