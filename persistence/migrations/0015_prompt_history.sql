-- 0015: what the user sent from the editor, per workspace (issue 28): ↑/↓
-- walk it and Ctrl+R searches it, across sessions and processes. Rows are
-- only ever added. text is as the editor held it, paste placeholders and
-- all; pastes is a JSON array of {"label", "text"}: what each placeholder
-- stands for, so that a recalled item shows its placeholders again and
-- sends the pasted text.
CREATE TABLE prompt_history (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace  TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('prompt', 'steer', 'follow_up')),
    text       TEXT    NOT NULL,
    pastes     TEXT    NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL
);

CREATE INDEX prompt_history_by_workspace ON prompt_history (workspace, id);
