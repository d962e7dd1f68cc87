-- 0011: the transcript becomes an append-only tree (issue 27). Nothing is
-- deleted or rewritten in place any more: every entry names its parent, the
-- session names its leaf, and the context the model sees is built from the
-- path root → leaf. An entry is a message (content: agent.Message JSON) or a
-- context entry (content: a JSON array of agent.Message), which a compaction
-- or a truncation appends: from it on, the model sees those messages instead
-- of everything before, while the entries before it stay for the user.
--
-- Today's rows become a single branch: each entry's parent is the one before
-- it, and the leaf is the last one.
ALTER TABLE transcript_entries ADD COLUMN parent_seq INTEGER;
ALTER TABLE transcript_entries ADD COLUMN kind TEXT NOT NULL DEFAULT 'message'
    CHECK (kind IN ('message', 'context'));
ALTER TABLE sessions ADD COLUMN leaf_seq INTEGER;

UPDATE transcript_entries SET parent_seq = (
    SELECT MAX(p.seq) FROM transcript_entries p
    WHERE p.session_id = transcript_entries.session_id AND p.seq < transcript_entries.seq);

UPDATE sessions SET leaf_seq = (
    SELECT MAX(seq) FROM transcript_entries WHERE session_id = sessions.id);
