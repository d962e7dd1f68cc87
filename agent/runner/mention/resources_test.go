package mention

import (
	"slices"
	"testing"
)

// TestMatchResources: resources rank by the files' scorer; "" matches
// none; a template is typed up to its first variable.
func TestMatchResources(t *testing.T) {
	rs := []Resource{
		{Server: "everything", URI: "test://static/resource/1", Name: "Resource 1"},
		{Server: "everything", URI: "test://static/resource/12", Name: "Resource 12"},
		{Server: "files", URI: "file:///{path}", Template: true},
	}
	cases := []struct {
		q    string
		want []string
	}{
		{"", nil},
		{"zzz", nil},
		{"every1", []string{"everything:test://static/resource/1", "everything:test://static/resource/12"}},
		{"files:", []string{"files:file:///{path}"}},
	}
	for _, c := range cases {
		var got []string
		for _, m := range MatchResources(rs, c.q, 10) {
			if m.Resource == nil || m.Resource.Ref() != m.Path {
				t.Errorf("%q: match %+v without its resource", c.q, m)
			}
			got = append(got, m.Path)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
		}
	}
	if got := rs[2].Typed(); got != "files:file:///" {
		t.Errorf("template typed as %q", got)
	}
	if got := rs[0].Typed(); got != "everything:test://static/resource/1" {
		t.Errorf("resource typed as %q", got)
	}
}
