-- 0010: a session keeps the auth profiles its user chose (SPEC §5.3, S25,
-- S26): the one tried first (preferred) and the only one it uses (locked),
-- so that a resumed session keeps its choice and `steer inspect profiles`,
-- another process, can show it. Sessions saved before it, and sessions that
-- chose nothing, have ''.
ALTER TABLE sessions ADD COLUMN preferred_profile TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN locked_profile TEXT NOT NULL DEFAULT '';
