package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
)

// SearchHit is a session whose messages (or title, or name) match a
// search, with the best matching line; its Title is its name when it has one.
type SearchHit struct {
	SessionID, Title, Workspace string
	Updated                     time.Time
	// Snippet is the matching text, the terms in [brackets]; the title
	// when only the title matches.
	Snippet string
}

// SearchSessions finds the sessions whose messages, titles or names hold every
// word of query (each a prefix), best match first, at most limit of them,
// in workspace ("" for all). Words are taken literally: query has no syntax.
func (s *Store) SearchSessions(ctx context.Context, query, workspace string, limit int) ([]SearchHit, error) {
	match := ftsQuery(query)
	if match == "" || limit <= 0 {
		return nil, nil
	}
	// Each session's best matching message is picked first (matched is
	// materialised: SQLite cannot rank inside an aggregate), and only those
	// get a snippet, which costs more than the ranking of every match. The
	// CROSS JOIN keeps the snippets' pass one scan of the matches: looked
	// up by rowid, FTS5 would expand every prefix again for each hit.
	rows, err := s.reader.QueryContext(ctx, `WITH matched AS MATERIALIZED (
			SELECT session_id, rowid AS entry, bm25(transcript_search) AS score
			FROM transcript_search WHERE transcript_search MATCH ?1),
		best AS (
			SELECT matched.session_id, entry, min(score) AS score
			FROM matched JOIN sessions s ON s.id = matched.session_id
			WHERE ?2 = '' OR s.workspace = ?2
			GROUP BY matched.session_id ORDER BY score LIMIT ?3)
		SELECT s.id, CASE s.name WHEN '' THEN s.title ELSE s.name END, s.workspace, s.updated_at,
			snippet(transcript_search, 2, '[', ']', '…', 12)
		FROM transcript_search CROSS JOIN best ON best.entry = transcript_search.rowid JOIN sessions s ON s.id = best.session_id
		WHERE transcript_search MATCH ?1
		ORDER BY best.score`, match, workspace, limit)
	if err != nil {
		return nil, s.classify(fmt.Errorf("search sessions: %w", err))
	}
	hits, seen, err := scanHits(rows, limit, nil, map[string]bool{})
	if err != nil {
		return nil, s.classify(fmt.Errorf("search sessions: %w", err))
	}
	if len(hits) < limit {
		like := "%" + likeEscape(strings.TrimSpace(query)) + "%"
		rows, err := s.reader.QueryContext(ctx, `SELECT id, CASE name WHEN '' THEN title ELSE name END, workspace, updated_at,
				CASE WHEN name LIKE ? ESCAPE '\' THEN name ELSE title END FROM sessions
			WHERE (title LIKE ? ESCAPE '\' OR name LIKE ? ESCAPE '\') AND (? = '' OR workspace = ?)
			ORDER BY updated_at DESC LIMIT ?`,
			like, like, like, workspace, workspace, limit)
		if err != nil {
			return nil, s.classify(fmt.Errorf("search session titles: %w", err))
		}
		if hits, _, err = scanHits(rows, limit, hits, seen); err != nil {
			return nil, s.classify(fmt.Errorf("search session titles: %w", err))
		}
	}
	return hits, nil
}

// scanHits adds to hits each row's session not yet seen, up to limit.
func scanHits(rows *sql.Rows, limit int, hits []SearchHit, seen map[string]bool) ([]SearchHit, map[string]bool, error) {
	defer rows.Close()
	for rows.Next() && len(hits) < limit {
		var h SearchHit
		var updated int64
		if err := rows.Scan(&h.SessionID, &h.Title, &h.Workspace, &updated, &h.Snippet); err != nil {
			return nil, nil, err
		}
		if seen[h.SessionID] {
			continue
		}
		seen[h.SessionID] = true
		h.Updated, h.Snippet = time.UnixMilli(updated).UTC(), strings.TrimSpace(h.Snippet)
		hits = append(hits, h)
	}
	return hits, seen, rows.Err()
}

// ftsQuery is query as an FTS5 expression: every word quoted (so that no
// character of it is syntax) and matched as a prefix, all of them required.
func ftsQuery(query string) string {
	words := strings.Fields(query)
	for i, w := range words {
		words[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"*`
	}
	return strings.Join(words, " ")
}

// likeEscape makes s literal in a LIKE pattern with ESCAPE '\'.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// searchBody is what the index holds of a message: its text, thinking and
// tool calls.
func searchBody(m agent.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		switch c.Type {
		case agent.ContentText:
			b.WriteString(c.Text)
		case agent.ContentThinking:
			b.WriteString(c.Thinking)
		case agent.ContentToolCall:
			b.WriteString(c.Name)
			b.WriteByte(' ')
			if args, err := json.Marshal(c.Arguments); err == nil {
				b.Write(args)
			}
		default:
			continue
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// indexMessages adds msgs, entries from seq first on, to the search index.
func indexMessages(ctx context.Context, tx *sql.Tx, sessionID string, first int, msgs []agent.Message) error {
	for i, m := range msgs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO transcript_search (session_id, seq, body) VALUES (?, ?, ?)`,
			sessionID, first+i, searchBody(m)); err != nil {
			return err
		}
	}
	return nil
}
