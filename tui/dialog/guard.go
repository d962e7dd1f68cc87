package dialog

import "time"

// TypeAheadPause is how long a question that one key answers ignores keys:
// after it appears, and after any key the user pressed. A typist's next key
// comes sooner than that, so a "y" or an Enter typed in a sentence as the
// question opens never answers it.
const TypeAheadPause = 400 * time.Millisecond

// Deliberate reports whether a key received at now may answer a question
// shown since shown, the user's previous key (anywhere on screen) having
// come at lastKey (zero when there was none). A burst (several runes in one
// message, a paste) is typed text and never answers. When it reports false
// the key belongs to the editor.
func Deliberate(shown, lastKey, now time.Time, burst bool) bool {
	switch {
	case burst, now.Sub(shown) < TypeAheadPause:
		return false
	case !lastKey.IsZero() && now.Sub(lastKey) < TypeAheadPause:
		return false
	}
	return true
}

// PausedUntil is when keys may answer again a question shown since shown,
// the previous key having come at lastKey.
func PausedUntil(shown, lastKey time.Time) time.Time {
	until := shown.Add(TypeAheadPause)
	if end := lastKey.Add(TypeAheadPause); !lastKey.IsZero() && end.After(until) {
		until = end
	}
	return until
}
