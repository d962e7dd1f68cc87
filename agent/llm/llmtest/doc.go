// Package llmtest is the StreamFn provider conformance suite and the test
// helpers the provider packages share.
//
// # The suites
//
// RunContract checks what agent.StreamFn promises of any implementation: one
// done or error event, last, then the end of the stream; an assistant
// message; well-formed events; a structured error instead of a panic or a
// hang; and a prompt, aborted end when the caller cancels. RunHTTP adds what
// an HTTP provider must do with the server it talks to: keep a failure
// status's details, time out a silent stream, cancel the request on abort,
// report a malformed stream, and keep its key out of errors and the
// environment's key off the wire.
//
// Both take a harness that connects the provider under test to a test server
// the suite controls, and that says how the provider's API streams text and
// shapes its errors, so that the suite itself stays API-neutral:
//
//	func TestContract(t *testing.T) { llmtest.RunContract(t, harness().ContractHarness) }
//	func TestHTTP(t *testing.T)     { llmtest.RunHTTP(t, harness()) }
//
// A provider with no server (the scripted one) runs RunContract with a
// harness whose Play sets it up to behave as each case asks (a Behaviour:
// answer, fail, be cut short, stall).
//
// # Recorded streams
//
// ReplayFixtures serves every recorded stream of one API (testdata/sse,
// embedded: real responses, each with a sidecar saying what a client must
// make of it) whole and in small irregular pieces, and compares the result
// with the recording's sidecar.
package llmtest
