package contextguard

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusEntry is one real tool output of testdata/toolresults (see its
// generate.sh), with its tail labelled by hand: "important" when its last
// 2,000 bytes carry one of SPEC §6.1's signs, else "boring".
type corpusEntry struct {
	File    string `json:"file"`
	Command string `json:"command"`
	Tail    string `json:"tail"`
	Why     string `json:"why"`
}

// corpusLimits are the request-time limits of an 8k, a 64k, a 128k and a
// 200k window, and the persist limit.
var corpusLimits = []int{4_095, 16_000, 32_000, 64_000, PersistMaxChars}

func TestTruncateCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "toolresults")
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []corpusEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatal(err)
	}
	if len(entries) < 30 {
		t.Fatalf("only %d corpus entries", len(entries))
	}
	for _, e := range entries {
		text := readGzip(t, filepath.Join(dir, e.File))
		lastLine := strings.TrimSpace(text[strings.LastIndexByte(strings.TrimRight(text, "\n"), '\n')+1:])
		firstLine := text[:strings.IndexByte(text+"\n", '\n')]
		for _, limit := range corpusLimits {
			t.Run(fmt.Sprint(e.File, "/", limit), func(t *testing.T) {
				out := TruncateToolResult(text, limit)
				head, tail := checkTruncation(t, text, limit, out) // budget, head, tail, count, idempotence
				if len(text) <= limit {
					return
				}
				// the head keeps at least MinKeepChars, less what snapping to a newline took
				if len(head) < MinKeepChars*(100-snapPercent)/100 || !strings.HasPrefix(head, firstLine[:min(len(firstLine), 200)]) {
					t.Fatalf("the head was lost: kept %d bytes", len(head))
				}
				switch e.Tail {
				case "important":
					if tail == "" || !strings.Contains(tail, lastLine) {
						t.Fatalf("important tail (%s) dropped; last line %q", e.Why, lastLine)
					}
				case "boring":
					if tail != "" || strings.Contains(out, MiddleMarker) {
						t.Fatalf("boring tail (%s) kept", e.Why)
					}
				default:
					t.Fatalf("label %q", e.Tail)
				}
			})
		}
	}
}

func readGzip(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
