-- 0006: where an ordinary cooldown's length came from
-- (failover.ProfileState.CooldownSource): '' for the schedule of SPEC §5.3,
-- else the header of the provider's longer hint, in lower case
-- ('retry-after', 'retry-after-ms', 'x-ratelimit-reset-tokens',
-- 'anthropic-ratelimit-requests-reset' …). It travels with cooldown_until:
-- the writer whose window is stored wrote its source. Rows from before read
-- as the schedule.

ALTER TABLE auth_profiles ADD COLUMN cooldown_source TEXT NOT NULL DEFAULT '';
