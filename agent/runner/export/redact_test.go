package export

import "testing"

func TestRedactorString(t *testing.T) {
	cases := []struct {
		name, known, in, want string
		count                 int
	}{
		{"openai", "", "key sk-proj-abcdefghijklmnopqrstuv1234 end", "key [redacted] end", 1},
		{"anthropic", "", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "[redacted]", 1},
		{"github classic", "", "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "[redacted]", 1},
		{"github app", "", "ghs_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 and gho_ABCDEFGHIJKLMNOPQRSTUVWX", "[redacted] and [redacted]", 2},
		{"github pat", "", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[redacted]", 1},
		{"aws key id", "", "AKIAIOSFODNN7EXAMPLE ASIAIOSFODNN7EXAMPLE", "[redacted] [redacted]", 2},
		{"aws secret", "", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [redacted]", 1},
		{"bearer header", "", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def", "Authorization: Bearer [redacted]", 1},
		{"bearer prose survives", "", "use Bearer authentication", "use Bearer authentication", 0},
		{"slack", "", "xoxb-1234567890-abcdefghij", "[redacted]", 1},
		{"known value", "hunter2-long-password", "pw hunter2-long-password, again hunter2-long-password", "pw [redacted], again [redacted]", 2},
		{"short known value ignored", "dev", "dev server", "dev server", 0},
		{"plain text", "", "nothing secret here, sk- alone", "nothing secret here, sk- alone", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRedactor(c.known)
			if got := r.String(c.in); got != c.want {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
			}
			if r.Count() != c.count {
				t.Errorf("Count() = %d, want %d", r.Count(), c.count)
			}
		})
	}
}

func TestNilRedactorRedactsNothing(t *testing.T) {
	var r *Redactor
	if got := r.String(fakeKey); got != fakeKey || r.Count() != 0 {
		t.Errorf("nil Redactor changed %q to %q (count %d)", fakeKey, got, r.Count())
	}
}
