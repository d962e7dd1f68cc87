-- 0002: who owns a session. Many steer processes share the database; a
-- session is written by one of them at a time, the one holding the OS lock on
-- sessions/<id>.lock. The lock is the truth (the kernel drops it when the owner
-- dies); this row only says who took it, for messages and listings, and may
-- outlive a killed owner until the next claim replaces it.

CREATE TABLE session_owners (
    session_id TEXT    PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    pid        INTEGER NOT NULL,
    host       TEXT    NOT NULL,
    claimed_at INTEGER NOT NULL
);
