package failover

// reasonPolicy says, for one reason, whether another auth profile (same
// model, another key) or another model can be expected to succeed where this
// attempt failed.
type reasonPolicy struct {
	rotate   bool
	fallback bool
}

// reasonPolicies is the decision's knowledge about reasons. Rotation is cheap,
// so it is tried for anything a different key could plausibly change; the
// exceptions are failures that belong to the request, the model or the
// network rather than the key. Format, timeout and context_overflow have
// their own rules in decideRules before these apply.
//
//	reason            rotate  fallback  why
//	auth              yes     yes       this key is rejected
//	auth_permanent    yes     yes       this key is revoked
//	billing           yes     yes       this account has no credit
//	rate_limit        yes     yes       this key is throttled
//	overloaded        yes     yes       capacity may differ per key/region
//	server_error      yes     yes       may be routed elsewhere; cheap to try
//	no_error_details  yes     yes       nothing says it is not the key
//	unknown           yes     yes       nothing to go on: cheap tries, bounded
//	timeout           (evid.) yes       a slow model; rotate only on evidence
//	format            no      no        the body is wrong for everyone (unless allowed)
//	model_not_found   no      yes       the model, not the key
//	tls_certificate   no      yes       the endpoint, not the key
//	empty_response    no      yes       the model answered nothing (§5.4)
//	context_overflow  no      no        compaction and truncation, then give up
//	session_expired   no      no        the conversation is gone on that side
//	unclassified      no      no        a specific refusal another key would repeat
//	malformed         no      no        the base URL serves a page, not the API
//	network           no      yes       the host cannot be reached: same host for every key
var reasonPolicies = [...]reasonPolicy{
	ReasonAuth:            {rotate: true, fallback: true},
	ReasonAuthPermanent:   {rotate: true, fallback: true},
	ReasonBilling:         {rotate: true, fallback: true},
	ReasonRateLimit:       {rotate: true, fallback: true},
	ReasonOverloaded:      {rotate: true, fallback: true},
	ReasonServerError:     {rotate: true, fallback: true},
	ReasonNoErrorDetails:  {rotate: true, fallback: true},
	ReasonUnknown:         {rotate: true, fallback: true},
	ReasonTimeout:         {rotate: false, fallback: true},
	ReasonFormat:          {rotate: true, fallback: true}, // reached only when format retries are allowed
	ReasonModelNotFound:   {rotate: false, fallback: true},
	ReasonTLSCertificate:  {rotate: false, fallback: true},
	ReasonEmptyResponse:   {rotate: false, fallback: true},
	ReasonContextOverflow: {rotate: false, fallback: false},
	ReasonSessionExpired:  {rotate: false, fallback: false},
	ReasonUnclassified:    {rotate: false, fallback: false},
	ReasonMalformed:       {rotate: false, fallback: false},
	ReasonNetwork:         {rotate: false, fallback: true},
}

// reasonStrength orders reasons by how strong a signal they are, strongest
// first. Account facts that persist beat transient capacity signals, which
// beat failures of the request, which beat the network and the vague ones:
// a timeout after a rate limit is most likely still the rate limit, and
// "no error details" never hides a known cause.
//
//	 1 billing           the account cannot pay
//	 2 auth_permanent    the key is revoked
//	 3 auth              the key is rejected
//	 4 rate_limit        the key is throttled
//	 5 overloaded        the provider is at capacity
//	 6 context_overflow  the request is too big
//	 7 model_not_found   the model is not there
//	 8 session_expired   the provider-side conversation is gone
//	 9 format            the request is malformed
//	10 malformed         the endpoint is not the API (a page, a JSON answer)
//	11 tls_certificate   the endpoint cannot be trusted
//	12 network           the endpoint cannot be reached
//	13 timeout           no answer in time
//	14 server_error      the provider broke
//	15 empty_response    an answer without content
//	16 unclassified      a specific error of no known kind
//	17 no_error_details  a generic "an error occurred"
//	18 unknown           nothing to go on
var reasonStrength = [...]Reason{
	ReasonBilling,
	ReasonAuthPermanent,
	ReasonAuth,
	ReasonRateLimit,
	ReasonOverloaded,
	ReasonContextOverflow,
	ReasonModelNotFound,
	ReasonSessionExpired,
	ReasonFormat,
	ReasonMalformed,
	ReasonTLSCertificate,
	ReasonNetwork,
	ReasonTimeout,
	ReasonServerError,
	ReasonEmptyResponse,
	ReasonUnclassified,
	ReasonNoErrorDetails,
	ReasonUnknown,
}

// strength is a reason's rank: higher is stronger.
func strength(r Reason) int {
	for i, s := range reasonStrength {
		if s == r {
			return len(reasonStrength) - i
		}
	}
	return 0
}

// Stronger reports whether a is a strictly stronger signal than b.
func Stronger(a, b Reason) bool { return strength(a) > strength(b) }

// MergeReason merges a run's reason so far with the reason of the latest
// failure: the stronger signal wins, and a weaker or equal new reason never
// replaces the old one. (seed) ReasonUnknown, the zero value, is the
// weakest, so a run's first failure always sets the reason.
func MergeReason(old, latest Reason) Reason {
	if Stronger(latest, old) {
		return latest
	}
	return old
}

// MostCredible picks, from the reasons of every failed attempt in order, the
// one whose error the user should see when every model failed (SPEC §5.4):
// the strongest signal, the latest of equals. It returns -1 for none.
func MostCredible(reasons []Reason) int {
	best := -1
	for i, r := range reasons {
		if best < 0 || !Stronger(reasons[best], r) {
			best = i
		}
	}
	return best
}
