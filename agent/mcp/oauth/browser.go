package oauth

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowserFunc sends the user to url. It may block until the browser
// command exits; an error returned before the redirect arrived fails the
// sign-in, a nil return keeps it waiting for the redirect.
type OpenBrowserFunc func(ctx context.Context, url string) error

// SystemBrowser opens url with $BROWSER when getenv finds it set, else with
// xdg-open (open on macOS). $BROWSER is a colon-separated list of commands
// tried in order; in each, "%s" stands for the URL, else the URL is the last
// argument. Commands run without a shell, their output discarded.
func SystemBrowser(getenv func(string) string) OpenBrowserFunc {
	return func(ctx context.Context, url string) error {
		var cmds [][]string
		for _, c := range strings.Split(getenv("BROWSER"), ":") {
			if words := strings.Fields(c); len(words) > 0 {
				cmds = append(cmds, withURL(words, url))
			}
		}
		if len(cmds) == 0 {
			opener := "xdg-open"
			if runtime.GOOS == "darwin" {
				opener = "open"
			}
			cmds = [][]string{{opener, url}}
		}
		var errs []error
		for _, argv := range cmds {
			cmd := exec.Command(argv[0], argv[1:]...)
			if err := cmd.Start(); err != nil {
				errs = append(errs, err)
				continue
			}
			if err := cmd.Wait(); err != nil {
				return fmt.Errorf("the browser command %s failed: %w", argv[0], err)
			}
			return nil
		}
		return fmt.Errorf("cannot open a browser (%w); open the sign-in URL yourself", errors.Join(errs...))
	}
}

func withURL(words []string, url string) []string {
	out := make([]string, 0, len(words)+1)
	replaced := false
	for _, w := range words {
		if strings.Contains(w, "%s") {
			w, replaced = strings.ReplaceAll(w, "%s", url), true
		}
		out = append(out, w)
	}
	if !replaced {
		out = append(out, url)
	}
	return out
}
