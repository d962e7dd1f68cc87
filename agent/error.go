package agent

import (
	"fmt"
	"unicode/utf8"
)

// MaxErrorBody bounds the excerpt of a provider's error body that is kept.
const MaxErrorBody = 2048

// ErrorKind says at which layer a provider request failed.
type ErrorKind string

// The layers a provider failure can come from.
const (
	// ErrorHTTP is a response with a failure status.
	ErrorHTTP ErrorKind = "http"
	// ErrorStream is an error reported inside a stream that had started.
	ErrorStream ErrorKind = "stream"
	// ErrorNetwork is a transport failure (refused, reset, DNS).
	ErrorNetwork ErrorKind = "network"
	// ErrorTimeout is the idle watchdog or a deadline firing.
	ErrorTimeout ErrorKind = "timeout"
	// ErrorMalformed is data that could not be parsed.
	ErrorMalformed ErrorKind = "malformed"
	// ErrorEmpty is a response that ended without any content.
	ErrorEmpty ErrorKind = "empty"
)

// ProviderError is the structured form of a failed request, kept on the failed
// assistant message so that the failover classifier can read it.
type ProviderError struct {
	Kind ErrorKind
	// Status is the HTTP status, 0 when there was none.
	Status int
	// Type and Code are the provider's own error type and code, when it sent them.
	Type string
	Code string
	// Message is the provider's human-readable message.
	Message string
	// Body is an excerpt of the raw body, at most MaxErrorBody bytes.
	Body string
	// Header holds the response's headers (canonical keys, as in
	// net/http.Header) when a response arrived, for what only they say —
	// Retry-After and rate-limit resets; nil when none did (a transport
	// failure, a watchdog cut before the headers).
	Header map[string][]string
}

// Error renders the failure on one line.
func (e *ProviderError) Error() string {
	switch {
	case e.Status != 0 && e.Type != "":
		return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message)
	case e.Status != 0:
		return fmt.Sprintf("%d: %s", e.Status, e.Message)
	case e.Type != "":
		return fmt.Sprintf("%s: %s", e.Type, e.Message)
	default:
		return fmt.Sprintf("%s: %s", e.Kind, e.Message)
	}
}

// TruncateBody bounds a raw body to MaxErrorBody bytes without splitting a rune.
func TruncateBody(body string) string {
	if len(body) <= MaxErrorBody {
		return body
	}
	cut := MaxErrorBody
	for cut > 0 && !utf8.RuneStart(body[cut]) {
		cut--
	}
	return body[:cut]
}
