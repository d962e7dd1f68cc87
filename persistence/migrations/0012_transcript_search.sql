-- 0012: a full-text index over the text of every message of every session
-- (issue 27: search every session), kept in the same transaction as the
-- append that adds the message. body is the message's text, thinking and
-- tool calls (name and arguments); context entries are not indexed, since the
-- messages they hold are, and sessions saved before it are indexed here.
CREATE VIRTUAL TABLE transcript_search USING fts5(
    session_id UNINDEXED, seq UNINDEXED, body, tokenize = 'unicode61');

INSERT INTO transcript_search (session_id, seq, body)
SELECT session_id, seq,
    CASE json_type(content, '$.content')
        WHEN 'text' THEN json_extract(content, '$.content')
        ELSE (SELECT group_concat(COALESCE(json_extract(b.value, '$.text'), json_extract(b.value, '$.thinking'),
                json_extract(b.value, '$.name') || ' ' || COALESCE(json_extract(b.value, '$.arguments'), '')), ' ')
              FROM json_each(content, '$.content') AS b)
    END
FROM transcript_entries WHERE kind = 'message';
