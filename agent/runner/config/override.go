package config

import (
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/assets"
)

// What a command-line flag and the configuration both say: the flag wins,
// then the file, then the default.

// Endpoint is what the provider gives its API's client (llm.API.New).
func (p Provider) Endpoint() llm.Endpoint {
	e := llm.Endpoint{BaseURL: p.BaseURL, IdleTimeout: p.Timeout, FirstProgressTimeout: p.FirstProgressTimeout, Headers: p.Headers}
	if usable := p.Usable(); len(usable) > 0 {
		e.APIKey = usable[0].Key.Reveal()
	}
	return e
}

// Approval is the tool approval mode: flag (--approve), else tools.approval,
// else ask where a person answers (terminal: the TUI) and auto headless
// (steer run, steer rpc), as pi and crush do.
func (c *Config) Approval(flag tools.Mode, terminal bool) tools.Mode {
	switch {
	case flag != "":
		return flag
	case c.Tools.Approval != "":
		return c.Tools.Approval
	case terminal:
		return tools.ModeAsk
	}
	return tools.ModeAuto
}

// RunTimeout is flag (--timeout) when set, else agent.timeoutSeconds (48 h
// unless set; 0 is no limit).
func (c *Config) RunTimeout(flag time.Duration) time.Duration {
	if flag > 0 {
		return flag
	}
	return c.Agent.Timeout
}

// Resolver resolves references through the configuration (aliases,
// catalogue models), leaving "" and the scripted provider's references to
// builtin, which also answers what the configuration does not know when it
// can. Its errors name no flag: the runtime also resolves what rpc's
// set_model and the TUI's model picker ask for.
func (c *Config) Resolver(builtin func(string) (agent.Model, error)) func(string) (agent.Model, error) {
	return func(ref string) (agent.Model, error) {
		if ref == "" || strings.HasPrefix(ref, assets.OfflineProvider+"/") {
			return builtin(ref)
		}
		m, err := c.ResolveModel(ref)
		if err != nil {
			if bm, berr := builtin(ref); berr == nil {
				return bm, nil
			}
			return agent.Model{}, err
		}
		return m, nil
	}
}
