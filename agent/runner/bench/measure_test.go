package bench

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// minRuns is the fewest runs a median is taken of.
const minRuns = 5

// sample is one run of a whole process.
type sample struct {
	wall   time.Duration
	cpu    time.Duration // user and system time, from the child's rusage: steadier than wall time on a busy machine
	rssKB  int64         // peak resident set size: GNU time's report, else the child's rusage
	output int64         // bytes written to stdout
}

// counter counts what a process writes.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// gnuTime is GNU time, if installed: it forks the command itself, so its
// report is the command's own peak RSS. A child that os/exec starts (vfork)
// is charged its parent's peak at exec, and its rusage overstates a small
// process by the benchmark process's size (curl by ~10-20 MB).
var gnuTime = sync.OnceValue(func() string {
	path, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return ""
	}
	return path
})

// run runs cmd to its end, timing it from start to exit.
func run(cmd *exec.Cmd) (sample, error) {
	out := &counter{}
	var errb strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, out, &errb
	report := ""
	if t := gnuTime(); t != "" {
		f, err := os.CreateTemp("", "steer-bench-rss-")
		if err != nil {
			return sample{}, err
		}
		report = f.Name()
		_ = f.Close()
		defer os.Remove(report)
		cmd.Args = append([]string{t, "-f", "%M", "-o", report}, cmd.Args...)
		cmd.Path = t
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v\n%s", cmd, err, errb.String())
	}
	got := sample{wall: wall, output: out.n}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		got.rssKB = ru.Maxrss // KiB on Linux
		got.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if report != "" {
		raw, err := os.ReadFile(report)
		if err != nil {
			return sample{}, err
		}
		if got.rssKB, err = strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64); err != nil {
			return sample{}, fmt.Errorf("GNU time reported %q: %v", raw, err)
		}
	}
	return got, nil
}

// summary is the median wall and CPU times and the highest peak RSS of some
// runs.
type summary struct {
	median, cpu time.Duration
	rssMB       float64
}

func summarize(samples []sample) summary {
	walls := make([]time.Duration, len(samples))
	cpus := make([]time.Duration, len(samples))
	var rss int64
	for i, s := range samples {
		walls[i], cpus[i], rss = s.wall, s.cpu, max(rss, s.rssKB)
	}
	return summary{median: median(walls), cpu: median(cpus), rssMB: float64(rss) / 1024}
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
