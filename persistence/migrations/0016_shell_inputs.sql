-- 0016: a pending input may be a shell command the user typed (`!cmd`,
-- and `!!cmd` whose output the model never sees), queued while a run is
-- active like a follow-up (issue 28).
-- SQLite cannot change a CHECK constraint in place, so the table is rebuilt
-- with every row and column as it was.
CREATE TABLE pending_inputs_shell (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    item_id    TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('steer', 'follow_up', 'shell', 'shell_private')),
    text       TEXT    NOT NULL,
    -- A JSON array of image blocks, NULL when there are none.
    images     TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, item_id)
);

INSERT INTO pending_inputs_shell (session_id, item_id, kind, text, images, created_at)
SELECT session_id, item_id, kind, text, images, created_at FROM pending_inputs ORDER BY rowid;

DROP TABLE pending_inputs;
ALTER TABLE pending_inputs_shell RENAME TO pending_inputs;
