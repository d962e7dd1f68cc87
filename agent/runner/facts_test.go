package runner

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestFactsTable: the table in facts.go's comment and Facts say the same,
// row by row — name, Data type, channel — and no fact is listed twice.
func TestFactsTable(t *testing.T) {
	src, err := os.ReadFile("facts.go")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^//\t([a-z_]+)\s+([A-Z][A-Za-z]+)\s+(stream|notice)\s`)
	doc := row.FindAllStringSubmatch(string(src), -1)
	if len(doc) != len(Facts) {
		t.Fatalf("the comment has %d rows, Facts %d", len(doc), len(Facts))
	}
	type key struct {
		name    string
		channel FactChannel
	}
	var seen []key
	for i, f := range Facts {
		if name, data, channel := doc[i][1], doc[i][2], FactChannel(doc[i][3]); name != f.Name || data != f.Data.Name() || channel != f.Channel {
			t.Errorf("row %d: %s %s on %s in the comment, %s %s on %s in Facts", i, name, data, channel, f.Name, f.Data.Name(), f.Channel)
		}
		k := key{f.Name, f.Channel}
		if slices.Contains(seen, k) {
			t.Errorf("%s on %s is listed twice", f.Name, f.Channel)
		}
		seen = append(seen, k)
	}
}
