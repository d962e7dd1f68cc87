package bench

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// minRuns is the fewest runs a median is taken of.
const minRuns = 5

// sample is one run of a whole process.
type sample struct {
	wall   time.Duration
	rssKB  int64 // peak resident set size, from the child's rusage
	output int64 // bytes written to stdout
}

// counter counts what a process writes.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// run runs cmd to its end, timing it from start to exit.
func run(cmd *exec.Cmd) (sample, error) {
	out := &counter{}
	var errb strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, out, &errb
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v\n%s", cmd, err, errb.String())
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss // KiB on Linux
	}
	return sample{wall: wall, rssKB: rss, output: out.n}, nil
}

// summary is the median time and the highest peak RSS of some runs.
type summary struct {
	median time.Duration
	rssMB  float64
}

func summarize(samples []sample) summary {
	walls := make([]time.Duration, len(samples))
	var rss int64
	for i, s := range samples {
		walls[i], rss = s.wall, max(rss, s.rssKB)
	}
	slices.Sort(walls)
	return summary{median: walls[len(walls)/2], rssMB: float64(rss) / 1024}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
