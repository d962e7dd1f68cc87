package oauth

import (
	"net/http"
	"reflect"
	"testing"
)

func TestParseChallenge(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		want   challenge
	}{
		{"none", nil, challenge{}},
		{"metadata and scope", []string{`Bearer resource_metadata="https://m.example/.well-known/oauth-protected-resource", scope="files:read files:write"`},
			challenge{ResourceMetadata: "https://m.example/.well-known/oauth-protected-resource", Scope: []string{"files:read", "files:write"}}},
		{"insufficient scope", []string{`Bearer error="insufficient_scope", scope="a b", error_description="need b"`},
			challenge{Scope: []string{"a", "b"}, Error: "insufficient_scope"}},
		{"bearer after basic", []string{`Basic realm="x", Bearer scope="s"`}, challenge{Scope: []string{"s"}}},
		{"unparsable", []string{`"broken`}, challenge{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.header {
				h.Add("WWW-Authenticate", v)
			}
			if got := parseChallenge(h); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseChallenge = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSelectScopes(t *testing.T) {
	tests := []struct {
		name                                     string
		challenged, configured, supported, saved []string
		want                                     []string
	}{
		{"challenge first", []string{"c"}, nil, []string{"s1", "s2"}, nil, []string{"c"}},
		{"scopes_supported when no challenge", nil, nil, []string{"s1", "s2"}, nil, []string{"s1", "s2"}},
		{"none at all", nil, nil, nil, nil, nil},
		{"configured before scopes_supported", nil, []string{"cfg"}, []string{"s1"}, nil, []string{"cfg"}},
		{"configured joins a challenge", []string{"c"}, []string{"cfg"}, nil, nil, []string{"c", "cfg"}},
		{"step-up keeps what was granted", []string{"write"}, nil, []string{"read"}, []string{"read"}, []string{"write", "read"}},
		{"no duplicates", []string{"a", "b"}, []string{"b"}, nil, []string{"a", "c"}, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := selectScopes(tt.challenged, tt.configured, tt.supported, tt.saved); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("selectScopes = %v, want %v", got, tt.want)
			}
		})
	}
}
