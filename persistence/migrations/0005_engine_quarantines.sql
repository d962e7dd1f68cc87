-- 0005: context-engine quarantines (SPEC §6.4), one row per engine that
-- failed: the first failure (method, reason, error text, when) and how many
-- failures have been recorded since. Shared by every steer process on the
-- state directory, so an engine that crashes in one terminal is not trusted
-- in another, and a restart does not re-trust it; `steer inspect engines
-- --clear NAME` deletes the row.
--
-- Times are Unix milliseconds. method is an engine method ('assemble',
-- 'compact' …), reason a failure kind ('error', 'panic', 'timeout', 'crash',
-- 'invalid_output').

CREATE TABLE engine_quarantines (
    engine  TEXT    PRIMARY KEY,
    method  TEXT    NOT NULL,
    reason  TEXT    NOT NULL,
    error   TEXT    NOT NULL DEFAULT '',
    since   INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    count   INTEGER NOT NULL DEFAULT 1 CHECK (count >= 1)
);
