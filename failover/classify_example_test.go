package failover_test

import (
	"fmt"

	"github.com/steer-tui/steer/failover"
)

func ExampleClassify() {
	// Specific text beats a generic status.
	fmt.Println(failover.Classify(500, `{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}`))
	// A 429 is a rate limit unless its text is billing.
	fmt.Println(failover.Classify(429, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}}`))
	// A status at the head of the text counts.
	fmt.Println(failover.Classify(0, "529 Overloaded"))
	// A bare 400 says nothing about the request's format.
	fmt.Println(failover.Classify(0, "400 status code (no body)"))
	// Only generic words, no status.
	fmt.Println(failover.Classify(0, "Provider returned error"))
	// Output:
	// context_overflow
	// billing
	// overloaded
	// unknown
	// no_error_details
}
