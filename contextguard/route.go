package contextguard

// Route is what makes a request fit its budget (SPEC §6.2): nothing,
// compaction, truncating tool results, or both. (seed)
type Route int

// The routes, from least to most work.
const (
	RouteFits Route = iota
	RouteCompactOnly
	RouteTruncateToolResultsOnly
	RouteCompactThenTruncate
)

var routeNames = [...]string{"fits", "compact_only", "truncate_tool_results_only", "compact_then_truncate"}

// String is the route's name in events and logs.
func (r Route) String() string {
	if r < 0 || int(r) >= len(routeNames) {
		return "unknown"
	}
	return routeNames[r]
}

// Compacts reports whether the route compacts the session.
func (r Route) Compacts() bool { return r == RouteCompactOnly || r == RouteCompactThenTruncate }

// The routing arithmetic (OpenClaw's).
const (
	// overflowBytesPerToken turns the overflow into bytes of tool output to
	// cut, at the text rate: cutting is asked to free more than the estimate
	// says it must, since the estimate is rough.
	overflowBytesPerToken = textBytesPerToken
	// truncationSlackBytes is the least extra that truncation must free
	// (512 tokens) before it is trusted alone.
	truncationSlackBytes = 512 * overflowBytesPerToken
)

// RouteFor decides the route for a request that is overflowTokens over its
// budget when truncating tool results to their limits would free
// reducibleChars bytes: no overflow fits; nothing to cut needs compaction;
// enough to cut — at least max(overflow + 2,048, 1.5 × overflow) in bytes —
// is truncation alone; anything less is compaction then truncation.
func RouteFor(overflowTokens, reducibleChars int) Route {
	switch {
	case overflowTokens <= 0:
		return RouteFits
	case reducibleChars <= 0:
		return RouteCompactOnly
	}
	overflowChars := overflowTokens * overflowBytesPerToken
	if reducibleChars >= max(overflowChars+truncationSlackBytes, (overflowChars*3+1)/2) {
		return RouteTruncateToolResultsOnly
	}
	return RouteCompactThenTruncate
}
