// Package bench measures steer as whole processes against the physical
// limit (issue 16). Its benchmarks build the binary, serve an
// OpenAI-compatible stream of N chunks from loopback, and time `steer run`
// — and curl, which only copies the bytes, reading the same stream — taking
// the median of at least five runs of each and the peak RSS of each child
// (through GNU time when it is installed: a child's own rusage is charged
// the benchmark process's size). They run only with -bench:
//
//	go test -run X -bench . ./agent/runner/bench/
//
// BenchmarkStartup is one chunk (start-up and one request), BenchmarkInit
// is `steer --version` (package initialisation alone), and
// BenchmarkSideBySide reports steer's time over curl's for 1 and 20,000
// unpaced chunks, beside the floor's: testdata/floor, a program built from
// steer's required libraries that does the least steer must (build the
// request with openai-go, copy the stream out undecoded, save a row with
// modernc.org/sqlite), so what no steer built from them can beat. STEER_BENCH_BIN=path measures that binary instead of
// building one (an older build, to compare). Either way a fresh copy is
// measured: peak RSS depends on how the file sits in the page cache (see
// copyBinary).
package bench
