-- 0009: a run record says why a run that did not complete ended (SPEC §12's
-- run_end reason): the overflow chain's give-up (context_overflow,
-- compaction_failure) or the failover reason of its last error. Runs
-- recorded before it, and runs that completed, have ''.
ALTER TABLE runs ADD COLUMN reason TEXT NOT NULL DEFAULT '';
