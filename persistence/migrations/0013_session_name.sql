-- 0013: a session has a name its user gives it (/name, `steer sessions
-- rename`), beside the title taken from its first prompt; '' for none.
ALTER TABLE sessions ADD COLUMN name TEXT NOT NULL DEFAULT '';
