package discover

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"

	"github.com/steer-tui/steer/agent"
)

// Server is one provider's server, as far as listing its models goes.
type Server struct {
	// Provider names the provider whose models the server lists.
	Provider string
	// BaseURL is the provider's base URL as its requests use it
	// ("http://127.0.0.1:11434/v1"): <BaseURL>/models is OpenAI's list, and
	// Ollama's API is on its host.
	BaseURL string
	// APIKey, when set, is sent as a bearer token; Headers go with every
	// request.
	APIKey  string
	Headers map[string]string
	// Describe is what steer knows of a model id before the server says
	// anything: the model with its Provider, API and BaseURL set, and the
	// catalogue's metadata when the catalogue knows the id
	// (config.Config.ModelOf). nil: the id alone, with Provider and BaseURL.
	Describe func(id string) agent.Model
}

// Kind is the API a server was listed through.
type Kind string

// The APIs List asks.
const (
	Ollama Kind = "ollama" // GET /api/tags, POST /api/show
	OpenAI Kind = "openai" // GET <base URL>/models
)

// Listing is what a server said: its models in its order, each with its ID
// and, where the server says them, ContextWindow, Input and Reasoning.
type Listing struct {
	Kind   Kind
	Models []agent.Model
}

// Error is a server that could not be listed.
type Error struct {
	Provider string
	BaseURL  string
	// Reason says why in a few words: "connection refused", "no answer in
	// time", "answers neither /api/tags nor /v1/models (HTTP 404)".
	Reason string
	// Err is the failure underneath, for the log; nil when the server
	// answered, but not with a list.
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("cannot list the models of %s (%s): %s", e.Provider, e.BaseURL, e.Reason)
}

func (e *Error) Unwrap() error { return e.Err }

// maxBody bounds an answer: OpenRouter's list of every model is ~1 MB.
const maxBody = 16 << 20

// List asks s which models it serves, until ctx ends: Ollama's API on the
// base URL's host first, else <base URL>/models. A server that refuses
// the connection or does not answer on the host is not asked again for
// /models, which is on the same host. Its error is an *Error.
func List(ctx context.Context, client *http.Client, s Server) (Listing, error) {
	l := lister{client: client, s: s}
	base, err := url.Parse(s.BaseURL)
	if err != nil || base.Host == "" {
		return Listing{}, l.fail("not an http(s) URL", err)
	}
	root := (&url.URL{Scheme: base.Scheme, Host: base.Host}).String()
	models, ollama, err := l.ollama(ctx, root)
	switch {
	case err != nil:
		return Listing{}, l.fail(reason(err), err)
	case ollama:
		return Listing{Kind: Ollama, Models: models}, nil
	}
	path := strings.TrimSuffix(base.Path, "/") + "/models"
	models, status, err := l.openAI(ctx, strings.TrimSuffix(s.BaseURL, "/")+"/models")
	switch {
	case err != nil:
		return Listing{}, l.fail(reason(err), err)
	case status != http.StatusOK:
		return Listing{}, l.fail(fmt.Sprintf("answers neither /api/tags nor %s (HTTP %d)", path, status), nil)
	case models == nil:
		return Listing{}, l.fail(path+" answers with no list of models", nil)
	}
	return Listing{Kind: OpenAI, Models: models}, nil
}

// lister makes the requests of one listing.
type lister struct {
	client *http.Client
	s      Server
}

func (l lister) fail(why string, err error) *Error {
	return &Error{Provider: l.s.Provider, BaseURL: l.s.BaseURL, Reason: why, Err: err}
}

// call sends one request and reads the answer; a status other than 200
// is no error, a failure to connect or read is.
func (l lister) call(ctx context.Context, method, url string, payload any) (status int, body []byte, err error) {
	var in io.Reader
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return 0, nil, err
		}
		in = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, in)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if l.s.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+l.s.APIKey)
	}
	for k, v := range l.s.Headers {
		req.Header.Set(k, v)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return 0, nil, err
	}
	if len(body) > maxBody {
		return 0, nil, errTooLarge
	}
	return resp.StatusCode, body, nil
}

var errTooLarge = errors.New("the answer is larger than 16 MB")

// reason says in a few words why a request failed.
func reason(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return "no answer in time"
	case errors.As(err, &dns):
		return "unknown host " + dns.Name
	case errors.Is(err, errTooLarge):
		return errTooLarge.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
