package failover

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// The classification leaves a hook for providers (seed 000 §5.1: "给
// provider 插件留了钩子——同一个 402,不同 provider 可能意味着不同的事"): the
// same status or phrase can mean different things at different providers.
// Classify reads what every provider means alike; a provider whose words
// mean something of their own gets a Refiner, which sees the generic reason
// and the error and may replace the reason. Refiners are pure and listed in
// one table, refiners, each with the evidence it rests on.

// ProviderKind names a provider whose errors a Refiner reads; KindGeneric
// has none.
type ProviderKind string

// The kinds with a refiner of their own.
const (
	KindGeneric    ProviderKind = ""
	KindAnthropic  ProviderKind = "anthropic"
	KindOpenAI     ProviderKind = "openai"
	KindOpenRouter ProviderKind = "openrouter"
)

// A Refiner refines the reason Classify gave to one provider's error: it
// returns r itself when the provider means what everyone means.
type Refiner func(r Reason, e *agent.ProviderError) Reason

// apiAnthropicMessages is the API (agent.Model.API) of Anthropic's messages
// wire format, whatever server speaks it: its error types are Anthropic's.
const apiAnthropicMessages = "anthropic-messages"

// kindHosts are the hosts (and their subdomains) each kind answers from.
var kindHosts = []struct {
	host string
	kind ProviderKind
}{
	{"api.anthropic.com", KindAnthropic},
	{"api.openai.com", KindOpenAI},
	{"openrouter.ai", KindOpenRouter},
}

// KindOf names the provider that serves m, from its API and base URL.
func KindOf(m agent.Model) ProviderKind {
	if u, err := url.Parse(m.BaseURL); err == nil && u.Hostname() != "" {
		host := strings.ToLower(u.Hostname())
		for _, k := range kindHosts {
			if host == k.host || strings.HasSuffix(host, "."+k.host) {
				return k.kind
			}
		}
	}
	if m.API == apiAnthropicMessages {
		return KindAnthropic
	}
	return KindGeneric
}

// refiners is the hook's table. Anthropic has no entry: its documented
// error types (billing_error on 402, overloaded_error on 529 and mid-stream
// with status 200, request_too_large on 413 …) are the type hints Classify
// reads for every provider, and the table test proves that they stay so.
var refiners = map[ProviderKind]Refiner{
	KindOpenAI:     refineOpenAI,
	KindOpenRouter: refineOpenRouter,
}

// ClassifyFor is ClassifyError refined for the provider that serves m.
func ClassifyFor(m agent.Model, perr *agent.ProviderError, err error) Reason {
	r := ClassifyError(perr, err)
	if refine, ok := refiners[KindOf(m)]; ok && perr != nil {
		return refine(r, perr)
	}
	return r
}

// openAIQuota is OpenAI's wording of an exhausted balance or monthly budget
// ("You exceeded your current quota, please check your plan and billing
// details", code insufficient_quota): at OpenAI a quota is money, not a
// window. Elsewhere (Gemini, Groq) "quota exceeded" is a per-minute or
// per-day limit that lifts by itself, which is how Classify reads it.
var openAIQuota = regexp.MustCompile(`(?i)\bexceeded (?:your |the )?(?:current )?quota\b`)

// refineOpenAI: a 429 (or a stream error) that says the quota is exceeded is
// billing at OpenAI, even when a proxy or SDK dropped the insufficient_quota
// code that Classify would have read.
func refineOpenAI(r Reason, e *agent.ProviderError) Reason {
	if r == ReasonRateLimit && openAIQuota.MatchString(e.Message+" "+e.Body) {
		return ReasonBilling
	}
	return r
}

// openRouterNoProvider is OpenRouter's 503 when no upstream can serve the
// model with the request's parameters ("No available model provider that
// meets your routing requirements", "No endpoints found that support …").
var openRouterNoProvider = regexp.MustCompile(`(?i)\bno (?:available )?(?:model )?(?:providers?|endpoints?) (?:found )?that (?:meets?|support|can)\b`)

// refineOpenRouter: that 503 is not a busy server to wait out — every key
// routes the same way, and only another model can answer — so it is
// model_not_found (fall back), not overloaded (retry the same profile).
func refineOpenRouter(r Reason, e *agent.ProviderError) Reason {
	if r == ReasonOverloaded && openRouterNoProvider.MatchString(e.Message+" "+e.Body) {
		return ReasonModelNotFound
	}
	return r
}
