package oauthtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Browser is a stand-in for the user's browser: it follows the
// authorization URL's redirects to the client's loopback listener and fails
// unless the last page answers 200.
func Browser(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("browser: %s answered %d: %s", resp.Request.URL, resp.StatusCode, body)
	}
	return nil
}
