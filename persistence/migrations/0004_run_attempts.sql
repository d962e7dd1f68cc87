-- 0004: the attempts of each run (SPEC §7.4): which auth profile of which
-- model was tried, how it ended (a failure reason, "" when it answered) and
-- what the failover decision was. This is the trace the inspectors show.

CREATE TABLE run_attempts (
    run_id      TEXT    NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    profile_id  TEXT    NOT NULL,
    model       TEXT    NOT NULL,
    reason      TEXT    NOT NULL DEFAULT '',
    decision    TEXT    NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL DEFAULT 0,
    ended_at    INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
);
