package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"time"
)

// callbackPath is where the authorization server sends the browser back.
const callbackPath = "/callback"

// callbackResult is what the redirect carried.
type callbackResult struct {
	Code string
	Iss  string
	Err  error
}

// callback is the loopback listener of one authorization (RFC 8252 §7.3):
// 127.0.0.1, never "localhost", so the redirect cannot resolve elsewhere.
// It answers the first request on callbackPath with a small page and
// reports it; later requests see that the sign-in is over.
type callback struct {
	srv         *http.Server
	redirectURI string
	state       string
	result      chan callbackResult
}

// listenCallback listens on 127.0.0.1:port (0 for a random one) for the
// redirect that carries state.
func listenCallback(port int, state, server string) (*callback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("cannot listen for the OAuth redirect: %w", err)
	}
	cb := &callback{
		redirectURI: fmt.Sprintf("http://%s%s", ln.Addr(), callbackPath),
		state:       state,
		result:      make(chan callbackResult, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, func(w http.ResponseWriter, r *http.Request) { cb.handle(w, r, server) })
	cb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go cb.srv.Serve(ln)
	return cb, nil
}

// handle answers the redirect. A response whose state is missing or wrong
// is discarded and fails the sign-in (2025-11-25 "Open Redirection"): it
// did not come from the request steer made.
func (cb *callback) handle(w http.ResponseWriter, r *http.Request, server string) {
	q := r.URL.Query()
	var res callbackResult
	switch {
	case q.Get("state") != cb.state:
		res.Err = errors.New("the authorization response's state does not match the request (discarded: it did not answer this sign-in)")
	case q.Get("error") != "":
		res.Err = fmt.Errorf("the authorization server refused: %s", q.Get("error"))
		if d := q.Get("error_description"); d != "" {
			res.Err = fmt.Errorf("%w: %s", res.Err, d)
		}
	case q.Get("code") == "":
		res.Err = errors.New("the authorization response carries no code")
	default:
		res.Code, res.Iss = q.Get("code"), q.Get("iss")
	}
	select {
	case cb.result <- res:
	default:
		w.WriteHeader(http.StatusConflict)
		page(w, "steer", "This sign-in is already over. You can close this tab.")
		return
	}
	if res.Err != nil {
		w.WriteHeader(http.StatusBadRequest)
		page(w, "steer: sign-in failed", res.Err.Error())
		return
	}
	page(w, "steer: signed in", fmt.Sprintf("steer is signed in to %s. You can close this tab.", server))
}

func page(w http.ResponseWriter, title, text string) {
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>%s</title><p>%s</p>\n", html.EscapeString(title), html.EscapeString(text))
}

// wait returns the redirect's result, or fails when ctx ends or the
// browser command failed before the redirect came.
func (cb *callback) wait(ctx context.Context, browser <-chan error) (callbackResult, error) {
	for {
		select {
		case res := <-cb.result:
			return res, res.Err
		case err := <-browser:
			if err == nil {
				browser = nil
				continue
			}
			// A browser that got an error page fails too; the page's
			// cause, already reported, says more.
			select {
			case res := <-cb.result:
				return res, res.Err
			default:
				return callbackResult{}, err
			}
		case <-ctx.Done():
			return callbackResult{}, fmt.Errorf("waiting for the browser to come back: %w", context.Cause(ctx))
		}
	}
}

// close stops the listener after the page in flight was written.
func (cb *callback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if cb.srv.Shutdown(ctx) != nil {
		cb.srv.Close()
	}
}
