package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestInspectorsScreenshot renders the auth profiles inspector after a run
// that rotated, for the README:
//
//	STEER_SCREENSHOT_INSPECTORS=$PWD/assets/inspectors.png go test ./tui/e2e -run InspectorsScreenshot
//
// Without STEER_SCREENSHOT_INSPECTORS it is skipped.
func TestInspectorsScreenshot(t *testing.T) {
	out := os.Getenv("STEER_SCREENSHOT_INSPECTORS")
	if out == "" {
		t.Skip("set STEER_SCREENSHOT_INSPECTORS=path.png to render a screenshot")
	}
	if _, err := exec.LookPath("convert"); err != nil {
		t.Skip("ImageMagick's convert is not installed (apt-get install imagemagick fonts-dejavu-core)")
	}
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, []byte(rotationConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("exec %q --state-dir %q --config %q --scenario auth-rotation --approve auto", steerBin, t.TempDir(), cfg))
	p.tmux("resize-window", "-x", "110", "-y", "30")
	p.typeText("hello", "Enter")
	p.waitFor("the answer", "You said: hello", 10*time.Second)
	p.waitFor("the run to end", " idle ", 15*time.Second)
	p.waitFor("the badge", "quarantined", 5*time.Second)
	p.typeText("/profiles", "Enter")
	p.waitFor("the profiles", "cooldown until", 5*time.Second)
	if err := renderPNG(p.tmux("capture-pane", "-p", "-e"), 110, 30, out); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", out)
}
