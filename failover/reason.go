// Package failover decides what happens when a provider fails: it classifies
// failures into a closed set of reasons, decides between going on, rotating
// the auth profile, falling back to the next model and surfacing the error,
// orders auth profiles and keeps their cooldown ledger, and merges how a run
// ended into one terminal outcome (SPEC §5). Its decisions are pure
// functions of their inputs and an injected clock.
package failover

// Reason is why a provider attempt failed: a closed set of 18 (SPEC §5.1),
// the seed's 16 and steer's malformed and network. String gives the
// snake_case code used in events, the ledger and the inspector. New reasons
// go at the end: the values index ReasonCounts and the decision tables, and
// the ledger stores reasons by code, so a database written before them
// still loads.
type Reason int

// The reasons. (seed)
const (
	ReasonUnknown Reason = iota // nothing to go on: no status and no text, or a bare status
	ReasonAuth
	ReasonAuthPermanent
	ReasonFormat
	ReasonRateLimit
	ReasonOverloaded
	ReasonBilling
	ReasonServerError
	ReasonTimeout
	ReasonTLSCertificate
	ReasonContextOverflow
	ReasonModelNotFound
	ReasonSessionExpired
	ReasonEmptyResponse  // a successful answer that carries nothing
	ReasonNoErrorDetails // only a generic "an error occurred"
	ReasonUnclassified   // a real, specific error that fits no other reason
	// ReasonMalformed: a successful status whose body is not the expected
	// event stream (an HTML page, a whole JSON answer): the base URL points
	// at something that is not the API. (steer)
	ReasonMalformed
	// ReasonNetwork: the connection could not be made (refused, the host
	// name does not resolve, no route): nothing reached the provider. (steer)
	ReasonNetwork
)

var reasonCodes = [...]string{
	ReasonUnknown:         "unknown",
	ReasonAuth:            "auth",
	ReasonAuthPermanent:   "auth_permanent",
	ReasonFormat:          "format",
	ReasonRateLimit:       "rate_limit",
	ReasonOverloaded:      "overloaded",
	ReasonBilling:         "billing",
	ReasonServerError:     "server_error",
	ReasonTimeout:         "timeout",
	ReasonTLSCertificate:  "tls_certificate",
	ReasonContextOverflow: "context_overflow",
	ReasonModelNotFound:   "model_not_found",
	ReasonSessionExpired:  "session_expired",
	ReasonEmptyResponse:   "empty_response",
	ReasonNoErrorDetails:  "no_error_details",
	ReasonUnclassified:    "unclassified",
	ReasonMalformed:       "malformed",
	ReasonNetwork:         "network",
}

// Reasons lists every reason, in declaration order.
func Reasons() []Reason {
	out := make([]Reason, len(reasonCodes))
	for i := range out {
		out[i] = Reason(i)
	}
	return out
}

// String is the reason's snake_case code.
func (r Reason) String() string {
	return codeOf(reasonCodes[:], r, "unknown")
}

// ParseReason reads a code String wrote; ok is false for anything else.
func ParseReason(code string) (r Reason, ok bool) {
	for i, c := range reasonCodes {
		if c == code {
			return Reason(i), true
		}
	}
	return ReasonUnknown, false
}

// MarshalText writes the code, so reasons read well in JSON.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }
