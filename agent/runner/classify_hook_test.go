package runner

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// TestTheProvidersHookClassifiesTheAttempt: the attempt loop classifies a
// failure with the hook of the provider that served it — the same 429 "you
// exceeded your current quota" is billing at OpenAI (the key is disabled)
// and a rate limit elsewhere (a short cooldown).
func TestTheProvidersHookClassifiesTheAttempt(t *testing.T) {
	for _, tt := range []struct {
		baseURL string
		want    failover.Reason
	}{
		{"https://api.openai.com/v1", failover.ReasonBilling},
		{"https://api.groq.com/openai/v1", failover.ReasonRateLimit},
	} {
		t.Run(tt.baseURL, func(t *testing.T) {
			p := &byProfile{fail: func(profile, _ string) *agent.ProviderError {
				if profile == "p:a" {
					return &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Message: "You exceeded your current quota."}
				}
				return nil
			}}
			m := agent.Model{Provider: "p", ID: "big", API: "openai-chat", BaseURL: tt.baseURL}
			ledger := &failover.MemLedger{}
			rt, err := New(context.Background(), Options{
				Providers: []Provider{{Name: "p", Models: []agent.Model{m}, Stream: p.stream,
					Profiles: []Profile{{ID: "p:a", APIKey: "key-a"}, {ID: "p:b", APIKey: "key-b"}}}},
				Model: "p/big", Ledger: ledger, Now: time.Now, Failover: noCooldownWait,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := rt.Prompt(context.Background(), "hi"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			st, err := ledger.Load(context.Background(), "p:a")
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Status(time.Now()).Reason; got != tt.want {
				t.Fatalf("p:a cooled down for %s, want %s", got, tt.want)
			}
		})
	}
}
