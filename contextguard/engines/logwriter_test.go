package engines

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"
)

func TestStderrLog(t *testing.T) {
	long := strings.Repeat("x", maxLogLine+10)
	cases := []struct {
		name   string
		writes []string
		lines  []string
	}{
		{"whole lines", []string{"one\ntwo\n"}, []string{"one", "two"}},
		{"split across writes", []string{"on", "e\ntw", "o\n"}, []string{"one", "two"}},
		{"a partial line waits", []string{"done\nhalf"}, []string{"done"}},
		{"CRLF and blank lines", []string{"a\r\n\n  \nb\n"}, []string{"a", "b"}},
		{"a line past the limit comes in pieces", []string{long + "\n"}, []string{long[:maxLogLine], "xxxxxxxxxx"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := StderrLog(slog.New(slog.NewJSONHandler(&buf, nil)), "notes")
			for _, s := range tc.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			var got []string
			dec := json.NewDecoder(&buf)
			for dec.More() {
				var rec struct {
					Msg, Engine, Line string
				}
				if err := dec.Decode(&rec); err != nil {
					t.Fatal(err)
				}
				if rec.Msg != "context engine stderr" || rec.Engine != "notes" {
					t.Errorf("record %+v", rec)
				}
				got = append(got, rec.Line)
			}
			if !reflect.DeepEqual(got, tc.lines) {
				t.Errorf("logged %q, want %q", got, tc.lines)
			}
		})
	}
}
