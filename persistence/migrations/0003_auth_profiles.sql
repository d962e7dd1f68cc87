-- 0003: the auth-profile failure ledger (SPEC §5.3), one row per profile: a
-- failover.ProfileState. Shared by every steer process on the state
-- directory, so a profile cooled down in one terminal is skipped in another
-- and a restart keeps its windows. Profile ids and statistics only, never
-- keys or any other secret.
--
-- Times are Unix milliseconds, 0 for "never" / "no window". Reasons are
-- failover.Reason codes ('unknown', 'rate_limit', 'billing' …). reason_counts
-- is a JSON object from reason code to count holding the non-zero entries of
-- the current failure window, e.g. {"rate_limit":2,"timeout":1}.

CREATE TABLE auth_profiles (
    profile_id          TEXT    PRIMARY KEY,
    -- Lifetime statistics.
    failures            INTEGER NOT NULL DEFAULT 0,
    successes           INTEGER NOT NULL DEFAULT 0,
    last_failure_at     INTEGER NOT NULL DEFAULT 0,
    last_failure_reason TEXT    NOT NULL DEFAULT 'unknown',
    last_success_at     INTEGER NOT NULL DEFAULT 0,
    -- Counters of the current failure window.
    error_count         INTEGER NOT NULL DEFAULT 0,
    reason_counts       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(reason_counts)),
    -- The ordinary cooldown; cooldown_model '' means the whole profile.
    cooldown_until      INTEGER NOT NULL DEFAULT 0,
    cooldown_model      TEXT    NOT NULL DEFAULT '',
    cooldown_reason     TEXT    NOT NULL DEFAULT 'unknown',
    -- The disabled track (billing, auth_permanent); always profile-wide.
    disabled_until      INTEGER NOT NULL DEFAULT 0,
    disabled_reason     TEXT    NOT NULL DEFAULT 'unknown',
    -- When a steer process last wrote the row.
    updated_at          INTEGER NOT NULL
);
