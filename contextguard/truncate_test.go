package contextguard

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// boring returns n bytes of lines that carry none of the important-tail words.
func boring(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "alpha beta gamma line %05d\n", i)
	}
	return b.String()[:n]
}

// checkTruncation asserts what every truncation promises: the suffix counts
// the dropped bytes, the kept parts are the text's head (and tail), the body
// stays within maxChars, valid UTF-8 stays valid, and cutting again changes
// nothing. It returns the kept head and tail (tail empty for head-only).
func checkTruncation(t *testing.T, text string, maxChars int, out string) (head, tail string) {
	t.Helper()
	if len(text) <= maxChars {
		if out != text {
			t.Fatalf("text of %d bytes within %d was changed", len(text), maxChars)
		}
		return text, ""
	}
	body, dropped := splitTruncated(out)
	if dropped == 0 {
		t.Fatalf("no suffix on a truncated text: %q", tailOf(out, 80))
	}
	if len(body) > max(maxChars, 0) {
		t.Fatalf("body is %d bytes, limit %d", len(body), maxChars)
	}
	head = body
	if i := strings.Index(body, MiddleMarker); i >= 0 {
		head, tail = body[:i], body[i+len(MiddleMarker):]
	}
	if !strings.HasPrefix(text, head) || !strings.HasSuffix(text, tail) {
		t.Fatalf("kept parts are not the text's head and tail")
	}
	if want := len(text) - len(head) - len(tail); dropped != want {
		t.Fatalf("suffix says %d dropped, dropped %d", dropped, want)
	}
	if utf8.ValidString(text) && !utf8.ValidString(out) {
		t.Fatalf("valid UTF-8 became invalid")
	}
	if again := TruncateToolResult(out, maxChars); again != out {
		t.Fatalf("truncating again changed the text")
	}
	return head, tail
}

func tailOf(s string, n int) string { return s[max(0, len(s)-n):] }

func TestTruncateHeadOnlyOrHeadAndTail(t *testing.T) {
	const maxChars = 16_000
	body := boring(60_000)
	cases := []struct {
		name     string
		ending   string
		headTail bool
	}{
		{"boring tail", "alpha beta gamma end\n", false},
		{"error", "main.go:3: error: undefined: x\n", true},
		{"exception", "java.lang.IllegalStateException raised: exception here\n", true},
		{"failed", "3 tests failed\n", true},
		{"fatal", "fatal: not a git repository\n", true},
		{"traceback", "Traceback (most recent call last):\n", true},
		{"panic", "panic: runtime error: index out of range\n", true},
		{"stack trace", "see the stack trace above\n", true},
		{"errno", "OSError: [Errno 2] No such file\n", true},
		{"exit code", "process ended with exit code 2\n", true},
		{"closing brace of JSON", "  \"last\": 1\n}\n", true},
		{"summary", "Summary: 12 passed\n", true},
		{"result", "test result: ok. 7 passed\n", true},
		{"complete", "Build complete.\n", true},
		{"finished", "Finished dev [unoptimized] target(s)\n", true},
		{"done", "Done in 3.2s.\n", true},
		{"total", "1.2G\ttotal\n", true},
		{"upper case", "BUILD FAILED\n", true},
		{"word inside a word", "errors_seen=0 resulting donezo\n", false},
		{"brace not at the end", "{ \"a\": 1 } trailing words\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := body + "\n" + c.ending
			out := TruncateToolResult(text, maxChars)
			head, tail := checkTruncation(t, text, maxChars, out)
			if c.headTail {
				if tail == "" || !strings.HasSuffix(tail, c.ending) {
					t.Fatalf("important tail %q not kept", c.ending)
				}
				if len(tail) > MaxTailChars {
					t.Fatalf("tail is %d bytes, more than %d", len(tail), MaxTailChars)
				}
			} else if tail != "" || strings.Contains(out, c.ending) {
				t.Fatalf("boring tail kept")
			}
			if len(head) < MinKeepChars {
				t.Fatalf("head is only %d bytes", len(head))
			}
		})
	}
}

func TestTruncateImportantWordOutsideLastWindowIsIgnored(t *testing.T) {
	text := "error at the very start\n" + boring(50_000)
	_, tail := checkTruncation(t, text, 16_000, TruncateToolResult(text, 16_000))
	if tail != "" {
		t.Fatal("an error far from the end made the tail important")
	}
}

func TestTruncateSnapsToNewlines(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n" // 100-byte lines
	lines := strings.Repeat(line, 200)     // 20,000 bytes
	noNewline := strings.Repeat("y", 20_000)
	cases := []struct {
		name        string
		text        string
		wantHeadEnd string // suffix of the kept head
		wantTailBeg string // prefix of the kept tail, "" for head-only
	}{
		{"head-only cut at a line end", lines, "x", ""},
		{"head-only without newlines", noNewline, "y", ""},
		{"head and tail at line boundaries", lines + "error\n", "x", "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := TruncateToolResult(c.text, 10_000)
			head, tail := checkTruncation(t, c.text, 10_000, out)
			if !strings.HasSuffix(head, c.wantHeadEnd) {
				t.Fatalf("head ends %q", tailOf(head, 10))
			}
			if strings.Contains(c.text, "\n") {
				if c.text[len(head)] != '\n' {
					t.Fatalf("head not cut at a newline: next byte %q", c.text[len(head)])
				}
				if tail != "" && c.text[len(c.text)-len(tail)-1] != '\n' {
					t.Fatal("tail does not start after a newline")
				}
			} else if len(head) != 10_000-suffixLen(len(c.text)) {
				t.Fatalf("head without newlines is %d bytes", len(head))
			}
			if !strings.HasPrefix(tail, c.wantTailBeg) {
				t.Fatalf("tail starts %q", tail[:min(len(tail), 10)])
			}
		})
	}
}

func TestTruncateIgnoresNewlinesFarFromTheCut(t *testing.T) {
	// The only newline sits at 50 % of the head budget: too far to snap to.
	text := strings.Repeat("a", 2_500) + "\n" + strings.Repeat("b", 10_000)
	out := TruncateToolResult(text, 5_000)
	head, _ := checkTruncation(t, text, 5_000, out)
	if len(head) != 5_000-suffixLen(len(text)) {
		t.Fatalf("head is %d bytes; the cut moved to a distant newline", len(head))
	}
}

func TestTruncateTinyBudgets(t *testing.T) {
	text := boring(9_000) + "\nerror: boom\n" // 9,013 bytes: the suffix is 38 bytes
	cases := []struct {
		maxChars int
		headTail bool // only when the budget (maxChars − 38) exceeds 2 × MinKeepChars
	}{
		{-5, false}, {0, false}, {1, false}, {10, false}, {100, false}, {1_999, false},
		{2_000, false}, {2_050, false}, {4_000, false}, {4_038, false}, {4_039, true},
		{4_200, true}, {8_000, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.maxChars), func(t *testing.T) {
			out := TruncateToolResult(text, c.maxChars)
			if _, tail := checkTruncation(t, text, c.maxChars, out); c.headTail != (tail != "") {
				t.Fatalf("head+tail = %v, want %v", tail != "", c.headTail)
			}
		})
	}
	if got := TruncateToolResult("abc", 0); got != "[... 3 more characters truncated]" {
		t.Fatalf("zero budget: %q", got)
	}
}

func TestTruncateKeepsMinKeepWhenTheSuffixWouldEatTheBudget(t *testing.T) {
	text := boring(10_000)
	out := TruncateToolResult(text, 2_010)
	head, _ := checkTruncation(t, text, 2_010, out)
	if len(head) < MinKeepChars-100 { // snapped to a line end at most one line back
		t.Fatalf("kept %d bytes, want about %d", len(head), MinKeepChars)
	}
}

func TestTruncateMultiByteRunes(t *testing.T) {
	texts := map[string]string{
		"accents": strings.Repeat("é", 6_000),
		"cjk":     strings.Repeat("日本語のテキスト", 1_000) + "完了 done",
		"emoji":   strings.Repeat("🙂", 3_000) + "\nerror 💥",
		"mixed":   strings.Repeat("aé日🙂\n", 2_000),
	}
	for name, text := range texts {
		for _, maxChars := range []int{1, 2, 3, 5, 7, 2_001, 4_103, 5_002, 9_999} {
			t.Run(fmt.Sprint(name, maxChars), func(t *testing.T) {
				checkTruncation(t, text, maxChars, TruncateToolResult(text, maxChars))
			})
		}
	}
}

func TestTruncateInvalidUTF8(t *testing.T) {
	texts := []string{
		strings.Repeat("\xff\xfe\x80", 5_000),
		strings.Repeat("ok \x80\x80\x80\x80\x80 ", 2_000) + "error",
		strings.Repeat("\xe6\x97", 6_000), // cut-off three-byte sequences
	}
	for i, text := range texts {
		for _, maxChars := range []int{0, 3, 4_321, 6_001, 9_000} {
			t.Run(fmt.Sprint(i, "/", maxChars), func(t *testing.T) {
				checkTruncation(t, text, maxChars, TruncateToolResult(text, maxChars))
			})
		}
	}
}

func TestTruncateIsIdempotentAndRecutsWhenTheLimitShrinks(t *testing.T) {
	text := boring(500_000) + "\nFAILED: exit code 1\n"
	stored := TruncateToolResult(text, PersistMaxChars)
	checkTruncation(t, text, PersistMaxChars, stored)
	if !IsTruncated(stored) {
		t.Fatal("IsTruncated is false on a truncated text")
	}
	if again := TruncateToolResult(stored, PersistMaxChars); again != stored {
		t.Fatal("a second truncation at the same limit changed the text")
	}
	sent := TruncateToolResult(stored, 16_000)
	// the re-cut counts both cuts: it is as if the original had been cut once
	head, tail := checkTruncation(t, text, 16_000, sent)
	if tail == "" || !strings.HasSuffix(tail, "exit code 1\n") || len(head) < MinKeepChars {
		t.Fatal("the re-cut lost the head or the important tail")
	}
	if TruncateToolResult(sent, 16_000) != sent || TruncateToolResult(sent, PersistMaxChars) != sent {
		t.Fatal("the re-cut text is cut again")
	}
}

func TestTruncateLeavesTextThatFits(t *testing.T) {
	for _, text := range []string{"", "short", boring(16_000)} {
		if got := TruncateToolResult(text, 16_000); got != text {
			t.Fatalf("text of %d bytes changed", len(text))
		}
	}
	if IsTruncated("plain [... x more characters truncated]") || IsTruncated("[... 0 more characters truncated]") {
		t.Fatal("IsTruncated accepts a malformed suffix")
	}
}

func TestContainsWord(t *testing.T) {
	cases := []struct {
		s, w string
		want bool
	}{
		{"error", "error", true},
		{"an error.", "error", true},
		{"errors", "error", false},
		{"error_code", "error", false},
		{"terror", "error", false},
		{"2error", "error", false},
		{"errors then error:", "error", true}, // a later occurrence counts
		{"exit  code", "exit code", false},
		{"(exit code 1)", "exit code", true},
		{"", "error", false},
	}
	for _, c := range cases {
		if got := containsWord(c.s, c.w); got != c.want {
			t.Errorf("containsWord(%q, %q) = %v", c.s, c.w, got)
		}
	}
}
