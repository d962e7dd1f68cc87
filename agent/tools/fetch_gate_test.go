package tools

import (
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools/permissions"
)

// TestFetchApproval: the approval policy on fetch, by domain: auto runs
// any domain no deny rule names, ask asks and an "always" answer grants
// the domain, an allow rule runs a domain unasked, a deny rule refuses it
// before any request, never refuses.
func TestFetchApproval(t *testing.T) {
	srv, hits := pageServer(t, serve("text/plain", "the page", true))
	type call struct {
		host   string
		asked  bool
		result string
		reason string // RefusalDetails.Refused, "" when it ran
	}
	for _, tc := range []struct {
		name    string
		mode    Mode
		rules   []string // allow rules; "deny:" marks a deny rule
		nobody  bool
		answers []Decision
		calls   []call
		grant   []string // the first request's grant
	}{
		{name: "auto runs any domain", mode: ModeAuto, calls: []call{
			{host: "a.test", result: "the page"}, {host: "b.test", result: "the page"}}},
		{name: "ask asks per domain", mode: ModeAsk, answers: []Decision{AllowSession, Deny},
			grant: []string{"WebFetch(domain:a.test)"}, calls: []call{
				{host: "a.test", asked: true, result: "the page"},
				{host: "a.test", result: "the page"},
				{host: "b.test", asked: true, result: "denied by the user", reason: RefusedByUser}}},
		{name: "an allow rule runs its domain unasked in ask", mode: ModeAsk, rules: []string{"WebFetch(domain:a.test)"},
			answers: []Decision{AllowOnce}, calls: []call{
				{host: "a.test", result: "the page"},
				{host: "b.test", asked: true, result: "the page"}}},
		{name: "a deny rule refuses its domain in auto", mode: ModeAuto, rules: []string{"deny:WebFetch(domain:a.test)"}, calls: []call{
			{host: "a.test", result: "denied by rule WebFetch(domain:a.test)", reason: RefusedByRule},
			{host: "b.test", result: "the page"}}},
		{name: "ask with nobody to answer names the rule", mode: ModeAsk, nobody: true, calls: []call{
			{host: "a.test", result: "it runs with the rule WebFetch(domain:a.test) in permissions.allow", reason: RefusedUnattended}}},
		{name: "never refuses", mode: ModeNever, calls: []call{
			{host: "a.test", result: `tool approval is "never"`, reason: RefusedByPolicy}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeNet{target: srv.Listener.Addr().String(), hosts: map[string][]string{
				"a.test": {"127.0.0.1"}, "b.test": {"127.0.0.1"}}}
			rb := NoRules(t.TempDir())
			for _, text := range tc.rules {
				kind := permissions.Allow
				if rest, ok := strings.CutPrefix(text, "deny:"); ok {
					kind, text = permissions.Deny, rest
				}
				r, err := permissions.Parse(text, kind)
				if err != nil {
					t.Fatal(err)
				}
				rb.List = append(rb.List, r)
			}
			fake := &fakeApprover{answers: tc.answers}
			var approver Approver = fake
			if tc.nobody {
				approver = nil
			}
			tool := NewGate(tc.mode, approver).WithRules(rb).Wrap([]agent.Tool{newFetch(f.guard(true))})[0]
			before := hits.Load()
			ran := int32(0)
			for i, c := range tc.calls {
				asked := len(fake.requests)
				url := "http://" + c.host + "/doc"
				r := execute(t, tool, map[string]any{"url": url})
				if got := len(fake.requests) > asked; got != c.asked {
					t.Errorf("call %d (%s): asked %v, want %v", i, c.host, got, c.asked)
				}
				if got := len(fake.requests) > asked; got && fake.requests[asked].Summary != "fetch "+url {
					t.Errorf("call %d: summary %q, want %q", i, fake.requests[asked].Summary, "fetch "+url)
				}
				refusal, _ := RefusalOf(r.Details)
				if !strings.Contains(text(r), c.result) || refusal.Refused != c.reason {
					t.Errorf("call %d (%s): %q (refused %q), want %q (refused %q)", i, c.host, text(r), refusal.Refused, c.result, c.reason)
				}
				if c.reason == "" {
					ran++
				}
			}
			if n := hits.Load() - before; n != ran {
				t.Errorf("the server got %d requests, want %d: a refused fetch must not reach it", n, ran)
			}
			if tc.grant != nil && (len(fake.requests) == 0 || !slices.Equal(fake.requests[0].Grant, tc.grant)) {
				t.Errorf("requests %+v, want the first to grant %q", fake.requests, tc.grant)
			}
		})
	}
}
