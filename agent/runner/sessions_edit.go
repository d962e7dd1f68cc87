package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/persistence"
)

// MaxSessionName bounds a session's name, in runes: it is a label for a
// list, not a note.
const MaxSessionName = 120

// CleanSessionName is the name a user typed as it is saved: one line,
// trimmed; "" removes the name. A name over MaxSessionName runes is refused.
func CleanSessionName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	if n := utf8.RuneCountInString(name); n > MaxSessionName {
		return "", fmt.Errorf("a session name is at most %d characters; this one has %d", MaxSessionName, n)
	}
	return name, nil
}

// renameSession names session id in store, or says why not.
func renameSession(ctx context.Context, store *persistence.Store, id, name string) (string, error) {
	name, err := CleanSessionName(name)
	if err != nil {
		return "", err
	}
	if err := store.SetSessionName(ctx, id, name); err != nil {
		if errors.Is(err, persistence.ErrNotFound) {
			return "", fmt.Errorf("%w %s", ErrNoSavedSession, id)
		}
		return "", err
	}
	return name, nil
}

// RenameSession names saved session id ("" for the current one); an empty
// name removes it. It answers with the name as saved.
func (b *sessionBook) RenameSession(ctx context.Context, id, name string) (string, error) {
	if b.store == nil {
		return "", errors.New("saved sessions are not available without a state directory")
	}
	if id == "" {
		var err error
		if id, err = b.ensureSession(ctx); err != nil {
			return "", err
		}
	}
	return renameSession(ctx, b.store, id, name)
}

// RenameSession names saved session id; an empty name removes it
// (`steer sessions rename`).
func (v *StateView) RenameSession(ctx context.Context, id, name string) (string, error) {
	return renameSession(ctx, v.store, id, name)
}

// DeleteSession deletes saved session id and everything of it, at the
// user's explicit request (the picker asks first). A session open here (the
// current one, a background run's, a sub-agent's) or in another steer is
// refused, saying so.
func (b *sessionBook) DeleteSession(ctx context.Context, id string) error {
	if b.store == nil {
		return errors.New("saved sessions are not available without a state directory")
	}
	err := b.store.DeleteSession(ctx, id)
	switch {
	case errors.Is(err, persistence.ErrOpenHere):
		return fmt.Errorf("session %s is open in this steer (the current session, or one still running): switch away or let it end first", id)
	case errors.Is(err, persistence.ErrNotFound):
		return fmt.Errorf("%w %s", ErrNoSavedSession, id)
	}
	return err
}
