-- 0008: sub-agent sessions know their parent (SPEC §7). A child session is
-- saved with the id of the session whose run delegated to it; a top-level
-- session has ''. No foreign key: SQLite adds a referencing column only with
-- a NULL default, and a child's record should outlive a deleted parent.
ALTER TABLE sessions ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
