-- 0018: the transcript records a change of the tool approval mode (issue 34:
-- plan mode, a plan approved into ask or auto). Its content is a JSON
-- object (Marker). SQLite cannot change a CHECK constraint in place, so the
-- table is rebuilt with every row and column as it was, as 0017 did.
CREATE TABLE transcript_entries_0018 (
    session_id         TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq                INTEGER NOT NULL,
    role               TEXT    NOT NULL,
    content            TEXT    NOT NULL,
    stop_reason        TEXT    NOT NULL DEFAULT '',
    input_tokens       INTEGER NOT NULL DEFAULT 0,
    output_tokens      INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens  INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    cost               REAL    NOT NULL DEFAULT 0,
    run_id             TEXT    NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL,
    parent_seq         INTEGER,
    kind               TEXT    NOT NULL DEFAULT 'message'
        CHECK (kind IN ('message', 'context', 'label', 'branch_summary', 'model_change', 'thinking_change',
                        'rewind', 'approval_change')),
    PRIMARY KEY (session_id, seq)
);

INSERT INTO transcript_entries_0018
    (session_id, seq, role, content, stop_reason, input_tokens, output_tokens, cache_read_tokens,
     cache_write_tokens, cost, run_id, created_at, parent_seq, kind)
SELECT session_id, seq, role, content, stop_reason, input_tokens, output_tokens, cache_read_tokens,
     cache_write_tokens, cost, run_id, created_at, parent_seq, kind
FROM transcript_entries;

DROP TABLE transcript_entries;
ALTER TABLE transcript_entries_0018 RENAME TO transcript_entries;
