package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestModelPickerNarrowsToOne: with the providers a key configures, /model
// lists hundreds of models; typing part of one's id leaves that one, and
// Enter switches to it. The keys are dummies and nothing is sent: the
// session stays on the scripted model until the switch.
func TestModelPickerNarrowsToOne(t *testing.T) {
	p := startPane(t, fmt.Sprintf("ANTHROPIC_API_KEY=dummy OPENAI_API_KEY=dummy OPENROUTER_API_KEY=dummy exec %q --state-dir %q --model scripted/echo",
		steerBin, t.TempDir()))
	p.typeText("/model", "Enter")
	p.waitFor("the model picker", "type to filter", 10*time.Second)
	p.typeText("opus-4-8")
	p.waitFor("the filter", "/ opus-4-8", 5*time.Second)
	screen := p.screen()
	m := regexp.MustCompile(`(\d+) of (\d+)`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no count of matches:\n%s", screen)
	}
	if total, _ := strconv.Atoi(m[2]); m[1] != "1" || total < 20 {
		t.Fatalf("%s of %s models match, want 1 of many:\n%s", m[1], m[2], screen)
	}
	if n := strings.Count(screen, "anthropic/claude-opus-4-8"); n != 1 {
		t.Fatalf("the model shows %d times:\n%s", n, screen)
	}
	p.typeText("", "Enter")
	p.waitFor("the switch", "model: anthropic/claude-opus-4-8", 5*time.Second)
}

// TestPickerSaysNoMatch: a filter that matches nothing says so, and
// Backspace widens it again.
func TestPickerSaysNoMatch(t *testing.T) {
	p := startSteer(t)
	p.typeText("/thinking", "Enter")
	p.waitFor("the thinking picker", "type to filter", 10*time.Second)
	p.typeText("zzz")
	p.waitFor("no matches", "no matches for “zzz”", 5*time.Second)
	p.typeText("", "BSpace", "BSpace", "BSpace")
	p.waitFor("every level again", "xhigh", 5*time.Second)
	p.typeText("", "Escape")
	for deadline := time.Now().Add(5 * time.Second); strings.Contains(p.screen(), "type to filter"); {
		if time.Now().After(deadline) {
			t.Fatalf("Esc did not close the picker:\n%s", p.screen())
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}
