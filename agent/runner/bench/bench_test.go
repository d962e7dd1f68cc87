package bench

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// curl reads the stream the way the limit does: it copies the bytes.
func curl(b *testing.B, url string) *exec.Cmd {
	b.Helper()
	path, err := exec.LookPath("curl")
	if err != nil {
		b.Skip("no curl to compare with")
	}
	return exec.Command(path, "-sfN", "-X", "POST", "-H", "Content-Type: application/json",
		"-d", `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`, url+"/v1/chat/completions")
}

// runs is how many runs a benchmark takes a median of: b.N, and at least
// minRuns.
func runs(b *testing.B) int { return max(b.N, minRuns) }

// BenchmarkInit is `steer --version`: the binary's package initialisation
// and nothing else.
func BenchmarkInit(b *testing.B) {
	s := newSandbox(b, "http://127.0.0.1:1")
	var samples []sample
	for range runs(b) {
		got, err := run(s.steer("--version"))
		if err != nil {
			b.Fatal(err)
		}
		samples = append(samples, got)
	}
	report(b, "steer", summarize(samples))
}

// BenchmarkStartup is `steer run` answering with one chunk from loopback:
// start-up, one request, the session saved.
func BenchmarkStartup(b *testing.B) {
	s := newSandbox(b, streamServer(b, 1).URL)
	var samples []sample
	for range runs(b) {
		got, err := run(s.ask())
		if err != nil {
			b.Fatal(err)
		}
		checkAnswer(b, got, 1)
		samples = append(samples, got)
	}
	report(b, "steer", summarize(samples))
}

// BenchmarkSideBySide times curl, the floor program and `steer run` reading
// the same unpaced stream, runs alternating, and reports each median and
// steer's and the floor's over curl's. The floor (testdata/floor) is what
// the required libraries cost before any of steer's own work: a target
// below it cannot be reached by a steer built from them.
func BenchmarkSideBySide(b *testing.B) {
	for _, chunks := range []int{1, 20_000} {
		b.Run(fmt.Sprintf("chunks=%d", chunks), func(b *testing.B) {
			srv := streamServer(b, chunks)
			s := newSandbox(b, srv.URL)
			var curls, floors, steers []sample
			for range runs(b) {
				c, err := run(curl(b, srv.URL))
				if err != nil {
					b.Fatal(err)
				}
				f, err := run(s.floor(b, srv.URL))
				if err != nil {
					b.Fatal(err)
				}
				st, err := run(s.ask())
				if err != nil {
					b.Fatal(err)
				}
				checkAnswer(b, st, chunks)
				if f.output != c.output {
					b.Fatalf("the floor printed %d bytes, curl %d", f.output, c.output)
				}
				curls, floors, steers = append(curls, c), append(floors, f), append(steers, st)
			}
			c, f, st := summarize(curls), summarize(floors), summarize(steers)
			report(b, "curl", c)
			report(b, "floor", f)
			report(b, "steer", st)
			b.ReportMetric(float64(f.median)/float64(c.median), "floor/curl")
			b.ReportMetric(float64(st.median)/float64(c.median), "steer/curl")
		})
	}
}

// checkAnswer fails unless steer printed the whole answer.
func checkAnswer(b *testing.B, got sample, chunks int) {
	b.Helper()
	if want := int64(len(strings.Repeat(chunkText, chunks))); got.output < want {
		b.Fatalf("steer printed %d bytes, want the %d of the answer", got.output, want)
	}
}

func report(b *testing.B, name string, s summary) {
	b.ReportMetric(ms(s.median), name+"-ms")
	b.ReportMetric(ms(s.cpu), name+"-cpu-ms")
	b.ReportMetric(s.rssMB, name+"-peak-MB")
}
