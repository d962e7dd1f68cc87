package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestScreenshot renders a real session to a PNG for the README:
//
//	STEER_SCREENSHOT=$PWD/assets/screenshot.png go test ./tui/e2e -run Screenshot
//
// It drives steer in tmux, captures the pane with its colours
// (capture-pane -e) and draws the cells with ImageMagick's convert in DejaVu
// Sans Mono. Without STEER_SCREENSHOT it is skipped.
func TestScreenshot(t *testing.T) {
	out := os.Getenv("STEER_SCREENSHOT")
	if out == "" {
		t.Skip("set STEER_SCREENSHOT=path.png to render a screenshot")
	}
	if _, err := exec.LookPath("convert"); err != nil {
		t.Skip("ImageMagick's convert is not installed (apt-get install imagemagick fonts-dejavu-core)")
	}
	p := startSteer(t)
	p.tmux("resize-window", "-x", "100", "-y", "32")
	p.typeText("hello", "Enter")
	p.waitFor("the answer", "Tools in this session", 10*time.Second)
	p.waitFor("the run to end", " idle ", 10*time.Second)
	p.typeText("run for i in 1 2 3 4 5 6 7 8; do echo \"step $i of 8\"; sleep 1; done", "Enter")
	p.waitFor("live output", "step 3 of 8", 10*time.Second)
	p.typeText("focus on the failing tests", "Enter")
	p.typeText("then summarise what changed", "M-Enter")
	p.waitFor("the queue", "follow-up › then summarise", 2*time.Second)
	p.typeText("and keep it short")
	p.waitFor("live output", "step 5 of 8", 10*time.Second)
	ansi := p.tmux("capture-pane", "-p", "-e")
	if err := renderPNG(ansi, 100, 32, out); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", out)
}

// cell is one character on screen with its colours.
type cell struct {
	ch       string
	fg, bg   string
	bold     bool
	italic   bool
	reversed bool
}

const (
	defaultFG = "#d0d0d0"
	defaultBG = "#1c1c1c"
	cellW     = 10
	cellH     = 21
)

// parseANSI turns capture-pane -e output into rows of cells.
func parseANSI(s string, width, height int) [][]cell {
	rows := make([][]cell, height)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	var cur cell
	reset := func() { cur = cell{fg: defaultFG, bg: defaultBG} }
	reset()
	for r := 0; r < height && r < len(lines); r++ {
		line := lines[r]
		for i := 0; i < len(line); {
			if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
				j := i + 2
				for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					applySGR(&cur, line[i+2:j], reset)
				}
				i = j + 1
				continue
			}
			rn := []rune(line[i:])[0]
			c := cur
			c.ch = string(rn)
			rows[r] = append(rows[r], c)
			i += len(string(rn))
		}
	}
	for r := range rows {
		for len(rows[r]) < width {
			rows[r] = append(rows[r], cell{ch: " ", fg: defaultFG, bg: defaultBG})
		}
	}
	return rows
}

func applySGR(c *cell, params string, reset func()) {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case ps[i] == "" || n == 0:
			reset()
		case n == 1:
			c.bold = true
		case n == 3:
			c.italic = true
		case n == 7:
			c.reversed = true
		case n == 22:
			c.bold = false
		case n == 23:
			c.italic = false
		case n == 27:
			c.reversed = false
		case n >= 30 && n <= 37:
			c.fg = xterm(n - 30)
		case n >= 90 && n <= 97:
			c.fg = xterm(n - 90 + 8)
		case n >= 40 && n <= 47:
			c.bg = xterm(n - 40)
		case n >= 100 && n <= 107:
			c.bg = xterm(n - 100 + 8)
		case n == 39:
			c.fg = defaultFG
		case n == 49:
			c.bg = defaultBG
		case (n == 38 || n == 48) && i+2 < len(ps) && ps[i+1] == "5":
			v, _ := strconv.Atoi(ps[i+2])
			if n == 38 {
				c.fg = xterm(v)
			} else {
				c.bg = xterm(v)
			}
			i += 2
		case (n == 38 || n == 48) && i+4 < len(ps) && ps[i+1] == "2":
			r, _ := strconv.Atoi(ps[i+2])
			g, _ := strconv.Atoi(ps[i+3])
			b, _ := strconv.Atoi(ps[i+4])
			col := fmt.Sprintf("#%02x%02x%02x", r, g, b)
			if n == 38 {
				c.fg = col
			} else {
				c.bg = col
			}
			i += 4
		}
	}
}

// xterm returns the RGB of xterm colour n.
func xterm(n int) string {
	basic := []string{"#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
		"#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"}
	switch {
	case n < 16:
		return basic[n]
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + v*40
		}
		return fmt.Sprintf("#%02x%02x%02x", level(n/36), level(n/6%6), level(n%6))
	default:
		v := 8 + (n-232)*10
		return fmt.Sprintf("#%02x%02x%02x", v, v, v)
	}
}

// renderPNG draws the cells with ImageMagick.
func renderPNG(ansi string, width, height int, out string) error {
	rows := parseANSI(ansi, width, height)
	const pad = 14
	var mvg strings.Builder
	font := func(c cell) string {
		switch r := []rune(c.ch)[0]; {
		case r >= 0x2800 && r <= 0x28ff: // braille spinners: not in the mono face
			return "DejaVu-Sans"
		case c.bold && c.italic:
			return "DejaVu-Sans-Mono-Bold-Oblique"
		case c.bold:
			return "DejaVu-Sans-Mono-Bold"
		case c.italic:
			return "DejaVu-Sans-Mono-Oblique"
		}
		return "DejaVu-Sans-Mono"
	}
	// An MVG file read as an image (mvg:FILE), not as -draw @FILE: the
	// security policy of many distributions forbids reading "@" paths.
	w, h := 2*pad+width*cellW, 2*pad+height*cellH
	fmt.Fprintf(&mvg, "viewbox 0 0 %d %d\nfill '%s' rectangle 0,0 %d,%d\nfont-size 16\n", w, h, defaultBG, w, h)
	for r, row := range rows {
		for col, c := range row {
			fg, bg := c.fg, c.bg
			if c.reversed {
				fg, bg = bg, fg
			}
			x, y := pad+col*cellW, pad+r*cellH
			if bg != defaultBG {
				fmt.Fprintf(&mvg, "fill '%s' rectangle %d,%d %d,%d\n", bg, x, y, x+cellW-1, y+cellH-1)
			}
			if strings.TrimSpace(c.ch) == "" {
				continue
			}
			text := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(c.ch)
			fmt.Fprintf(&mvg, "fill '%s' font '%s' text %d,%d \"%s\"\n", fg, font(c), x, y+16, text)
		}
	}
	dir, err := os.MkdirTemp("", "steer-shot-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "screen.mvg")
	if err := os.WriteFile(script, []byte(mvg.String()), 0o600); err != nil {
		return err
	}
	cmd := exec.Command("convert", "mvg:"+script, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("convert: %v\n%s", err, msg)
	}
	return nil
}
