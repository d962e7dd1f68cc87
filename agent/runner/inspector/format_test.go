package inspector

import (
	"testing"
	"time"
)

func TestLeft(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"}, {0, "0s"}, {300 * time.Millisecond, "1s"}, {30 * time.Second, "30s"},
		{29*time.Second + time.Millisecond, "30s"}, {245 * time.Second, "4m05s"},
		{2*time.Hour + 3*time.Minute, "2h03m"}, {76 * time.Hour, "3d04h"},
	} {
		if got := left(c.d); got != c.want {
			t.Errorf("left(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 5, 6, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(-d); return &t }
	for _, c := range []struct {
		t    *time.Time
		want string
	}{
		{nil, "never"}, {at(0), "just now"}, {at(12 * time.Second), "12s ago"}, {at(5 * time.Minute), "5m ago"},
		{at(3 * time.Hour), "3h ago"}, {at(72 * time.Hour), now.Add(-72 * time.Hour).Local().Format("Jan 2")},
	} {
		if got := ago(c.t, now); got != c.want {
			t.Errorf("ago(%v) = %q, want %q", c.t, got, c.want)
		}
	}
}

func TestTook(t *testing.T) {
	for _, c := range []struct {
		ms   int64
		want string
	}{{0, "0ms"}, {850, "850ms"}, {2400, "2.4s"}, {72_000, "1m12s"}} {
		if got := took(c.ms); got != c.want {
			t.Errorf("took(%d) = %q, want %q", c.ms, got, c.want)
		}
	}
}
