package failover

// codeOf is the wire code of enum value v in its table, or fallback for a
// value outside it: every enum of the package writes itself this way.
func codeOf[T ~int](table []string, v T, fallback string) string {
	if v < 0 || int(v) >= len(table) {
		return fallback
	}
	return table[v]
}
