-- 0001: sessions, their transcripts, pending inputs and run records.
-- Times are Unix milliseconds. Shipped migrations are never edited; change the
-- schema by adding the next file.

CREATE TABLE sessions (
    id                   TEXT    PRIMARY KEY,
    workspace            TEXT    NOT NULL DEFAULT '',
    title                TEXT    NOT NULL DEFAULT '',
    model                TEXT    NOT NULL DEFAULT '',
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL,
    message_count        INTEGER NOT NULL DEFAULT 0,
    input_tokens         INTEGER NOT NULL DEFAULT 0,
    output_tokens        INTEGER NOT NULL DEFAULT 0,
    cost                 REAL    NOT NULL DEFAULT 0,
    -- The run allowed to write the transcript; NULL when none is.
    active_writer_run_id TEXT
);

CREATE INDEX sessions_by_workspace ON sessions (workspace, updated_at);
CREATE INDEX sessions_by_updated ON sessions (updated_at);

CREATE TABLE transcript_entries (
    session_id         TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq                INTEGER NOT NULL,
    role               TEXT    NOT NULL,
    -- The whole message as agent.Message JSON (pi's shape).
    content            TEXT    NOT NULL,
    stop_reason        TEXT    NOT NULL DEFAULT '',
    input_tokens       INTEGER NOT NULL DEFAULT 0,
    output_tokens      INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens  INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    cost               REAL    NOT NULL DEFAULT 0,
    -- The run that wrote the entry.
    run_id             TEXT    NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
);

CREATE TABLE pending_inputs (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    item_id    TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('steer', 'follow_up')),
    text       TEXT    NOT NULL,
    -- A JSON array of image blocks, NULL when there are none.
    images     TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, item_id)
);

CREATE TABLE runs (
    run_id     TEXT    PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    "trigger"  TEXT    NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL,
    ended_at   INTEGER,
    outcome    TEXT    NOT NULL DEFAULT '',
    error      TEXT    NOT NULL DEFAULT ''
);

CREATE INDEX runs_by_session ON runs (session_id, started_at);
