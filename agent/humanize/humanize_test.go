package humanize_test

import (
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/humanize"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"},
		{999, "999"},
		{1000, "1.0k"},
		{1234, "1.2k"},
		{200_000, "200.0k"},
		{999_949, "999.9k"},
		{1_000_000, "1.0M"},
		{3_400_000, "3.4M"},
	}
	for _, tt := range tests {
		if got := humanize.Tokens(tt.n); got != tt.want {
			t.Errorf("Tokens(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"},
		{850 * time.Millisecond, "850ms"},
		{999 * time.Millisecond, "999ms"},
		{time.Second, "1.0s"},
		{3200 * time.Millisecond, "3.2s"},
		{59 * time.Second, "59.0s"},
		{time.Minute, "1m00s"},
		{2*time.Minute + 5*time.Second, "2m05s"},
		{75 * time.Minute, "75m00s"},
	}
	for _, tt := range tests {
		if got := humanize.Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KB"},
		{1536, "1.5 KB"},
		{64 * 1024, "64.0 KB"},
		{3_355_443, "3.2 MB"},
	}
	for _, tt := range tests {
		if got := humanize.Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
