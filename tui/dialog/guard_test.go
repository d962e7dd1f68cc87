package dialog

import (
	"testing"
	"time"
)

func TestDeliberate(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	cases := []struct {
		name                string
		shown, lastKey, now time.Time
		burst               bool
		want                bool
	}{
		{"a key as the dialog opens", ms(0), time.Time{}, ms(0), false, false},
		{"a key 399 ms after it opened", ms(0), time.Time{}, ms(399), false, false},
		{"a key 400 ms after it opened, none before", ms(0), time.Time{}, ms(400), false, true},
		{"alone 600 ms after it opened", ms(0), ms(-2000), ms(600), false, true},
		{"typing before it opened, 150 ms apart", ms(0), ms(-150), ms(0), false, false},
		{"typing went on after it opened", ms(0), ms(450), ms(600), false, false},
		{"the previous key 399 ms before", ms(0), ms(601), ms(1000), false, false},
		{"the previous key 400 ms before", ms(0), ms(600), ms(1000), false, true},
		{"a burst long after it opened", ms(0), ms(-5000), ms(5000), true, false},
		{"a burst as it opens", ms(0), time.Time{}, ms(10), true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Deliberate(c.shown, c.lastKey, c.now, c.burst); got != c.want {
				t.Fatalf("Deliberate(shown %v, last %v, now %v, burst %v) = %v, want %v",
					c.shown.Sub(t0), c.lastKey.Sub(t0), c.now.Sub(t0), c.burst, got, c.want)
			}
			until := PausedUntil(c.shown, c.lastKey)
			if !c.burst && c.want != !c.now.Before(until) {
				t.Fatalf("PausedUntil = %v disagrees with Deliberate at %v", until.Sub(t0), c.now.Sub(t0))
			}
		})
	}
}
