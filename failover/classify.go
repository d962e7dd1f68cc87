package failover

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Classify names why a provider attempt failed, from the HTTP status (0
// when there was none) and the error text: the provider's message, its raw
// body, or both. It reads a status found at the head of the text ("429 Too
// Many Requests", "Error code: 400 - {…}") when status is 0.
//
// The order is SPEC §5.1's: a specific phrase in the text wins (a 500 whose
// body says the context was exceeded is context_overflow), except where the
// status is the stronger signal (a 429 is a rate limit unless its text is
// billing); then the status decides; then a structured error type
// (invalid_request_error, overloaded_error, api_error …) is the last hint.
// A bare status with no body says little: "400 (no body)" is unknown, not
// format, because treating it as format sends the run into compaction loops.
func Classify(status int, text string) Reason {
	return classify(status, text, nil)
}

// classify is Classify with the provider's structured type and code, when
// the caller has them apart from the text.
func classify(status int, text string, types []string) Reason {
	c := tables()
	lower := strings.ToLower(strings.TrimSpace(text))
	rest := lower
	if m := c.leading.FindStringSubmatchIndex(lower); m != nil && isStatus(atoi(lower[m[2]:m[3]])) {
		code := atoi(lower[m[2]:m[3]])
		if status == 0 {
			status = code
		}
		if code == status {
			rest = strings.TrimSpace(lower[m[1]:])
		}
	}
	if status == 0 {
		if m := c.code.FindStringSubmatch(lower); m != nil && isStatus(atoi(m[1]+m[2])) {
			status = atoi(m[1] + m[2])
		}
	}

	if status == 402 {
		// "Payment Required" is the status's name, not a reading of it.
		lower = strings.NewReplacer("payment required", "", "payment_required", "").Replace(lower)
	}
	if isBare(c, status, rest) && !hasType(types) {
		return bareStatus(status)
	}
	if r, ok := c.matchText(lower); ok && textBeatsStatus(status, r) {
		return r
	}
	if status == 402 {
		if c.retryWindow.MatchString(lower) {
			return ReasonRateLimit
		}
		return ReasonBilling
	}
	if r, ok := statusRules[status]; ok {
		return r
	}
	if status >= 500 && status < 600 {
		return ReasonServerError
	}
	if r, ok := c.typeHint(lower, types...); ok {
		return r
	}
	if isGeneric(c, rest) {
		return ReasonNoErrorDetails
	}
	return ReasonUnclassified
}

// isBare reports whether the text after the status says nothing more than
// the status does: nothing, "(no body)", or the status's own name.
func isBare(c *compiled, status int, rest string) bool {
	rest = strings.Trim(rest, " .:-")
	return rest == "" || c.empty.MatchString(rest) ||
		(status != 0 && rest == strings.ToLower(http.StatusText(status)))
}

// bareStatus is the reason of a status that came without a body: a status
// whose meaning is clear on its own keeps it (429, 503 …); 400 and 422 say
// only "rejected", which is not enough to call the request malformed.
func bareStatus(status int) Reason {
	switch {
	case status == 400 || status == 422:
		return ReasonUnknown
	case status >= 200 && status < 300:
		return ReasonEmptyResponse
	}
	if r, ok := statusRules[status]; ok {
		return r
	}
	if status >= 500 && status < 600 {
		return ReasonServerError
	}
	return ReasonUnknown
}

// textBeatsStatus reports whether a reason found in the text replaces the
// one the status gives. A reason only our side of the connection can know
// (network) never does: a status means the server answered, and a proxy's
// 502 saying "dial tcp …: connection refused" is about its upstream.
func textBeatsStatus(status int, r Reason) bool {
	if status != 0 && slices.Contains(transportOnly, r) {
		return false
	}
	keeps, limited := statusKeeps[status]
	return !limited || slices.Contains(keeps, r)
}

// isGeneric reports whether rest only says that something failed: as a
// whole, as the message of a JSON body, or after a "provider: " prefix.
func isGeneric(c *compiled, rest string) bool {
	candidates := []string{rest}
	if m := c.message.FindStringSubmatch(rest); m != nil {
		candidates = append(candidates, m[1])
	}
	if i := strings.LastIndex(rest, ": "); i >= 0 {
		candidates = append(candidates, rest[i+2:])
	}
	for _, s := range candidates {
		if c.generic.MatchString(strings.TrimSpace(s)) {
			return true
		}
	}
	return false
}

// isStatus reports whether n is an HTTP status a provider answers with: a
// number that merely looks like one ("(450 tokens)") is not.
func isStatus(n int) bool {
	_, known := statusRules[n]
	return known || http.StatusText(n) != ""
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func hasType(types []string) bool {
	for _, t := range types {
		if strings.TrimSpace(t) != "" {
			return true
		}
	}
	return false
}
