package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/agent/llm/anthropic"
	"github.com/steer-tui/steer/agent/llm/openai"
	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/agent/tools"
)

// initialModel checks the model to start with, worded for where it came
// from: the --model flag, or the configuration's default. A model whose
// provider cannot be used (its key is not set) is refused, naming the key,
// unless it is the default and a fallback can be used: note then says that
// the process starts on the fallback.
func initialModel(cfg *config.Config, o headless.Args, providers []runner.Provider, resolve func(string) (agent.Model, error)) (ref, note string, err error) {
	ref = o.Model
	if ref == "" {
		ref = cfg.Model
	}
	m, note, err := runner.StartingModel(ref, o.Model != "", cfg.Fallbacks, providers, resolve)
	var ue *runner.UnusableError
	switch {
	case errors.As(err, &ue) && o.Model != "":
		return "", "", fmt.Errorf("--model %s: %s", ue.Model, ue.Reason)
	case errors.As(err, &ue):
		return "", "", fmt.Errorf("the default model %s cannot be used: %s (set the key, choose another model with --model, "+
			"or run offline with --model %s/echo)", ue.Model, ue.Reason, scripted.ProviderName)
	case err != nil && o.Model != "":
		return "", "", fmt.Errorf("--model: %w", err)
	case err != nil:
		return "", "", err
	}
	return m.Ref(), note, nil
}

// rehearsal is what the scripted providers play: --pace and --scenario.
func rehearsal(o headless.Args) (scripted.Options, error) {
	play := scripted.Options{Pace: o.Pace}
	if o.Scenario != "" {
		sc, err := scripted.LoadScenario(o.Scenario)
		if err != nil {
			return play, fmt.Errorf("--scenario: %w", err)
		}
		play.Scenario = sc
	}
	return play, nil
}

// providerAPIs registers the provider APIs steer speaks, one row each: the
// one table that configuration checks a provider's "api" against, that
// says which catalogue providers steer can talk to, and that builds each
// configured provider's stream (providersFrom). The scripted rows play
// play.
func providerAPIs(play scripted.Options) llm.APIs {
	return llm.APIs{
		{Name: llm.OpenAIChat, CatalogueTypes: []string{"openai", "openai-compat", "openrouter", "vercel"}, New: openai.NewStream},
		{Name: llm.AnthropicMessages, CatalogueTypes: []string{"anthropic"}, New: anthropic.NewStream},
		{Name: llm.Scripted, Models: scripted.Models, New: scripted.Streams(play)},
	}
}

// providersFrom builds the client of each provider, the built-in scripted
// one among them, through its API's row. A provider none of whose keys is
// set is listed as unusable.
func providersFrom(cfg *config.Config, apis llm.APIs) ([]runner.Provider, error) {
	var out []runner.Provider
	for _, p := range cfg.AllProviders() {
		api, _ := apis.Find(p.API) // config.Load checked it
		stream, err := api.New(p.Endpoint())
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", p.Name, err)
		}
		rp := runner.Provider{Name: p.Name, Models: p.Models, Stream: stream, Unusable: p.Unusable(), Thinking: p.Thinking}
		for _, pr := range p.Usable() {
			rp.Profiles = append(rp.Profiles, runner.Profile{ID: pr.ID, APIKey: pr.Key.Reveal()})
		}
		out = append(out, rp)
	}
	return out, nil
}

// engineRefs are the configured external context engines.
func engineRefs(cfg *config.Config) []runner.EngineRef {
	var refs []runner.EngineRef
	for name, e := range cfg.ContextEngines {
		refs = append(refs, runner.EngineRef{Name: name, Command: e.Command, Timeout: e.Timeout})
	}
	return refs
}

// engineConfigs are the configured external context engines, as the
// runtime starts them.
// budgetOf is the config's budget, with --max-cost (when given) as each
// run's cap in dollars.
func budgetOf(b config.Budget, maxCost float64) runner.BudgetLimits {
	l := runner.BudgetLimits{SessionUSD: b.SessionUSD, RunUSD: b.RunUSD, SessionTokens: b.SessionTokens, RunTokens: b.RunTokens}
	if maxCost > 0 {
		l.RunUSD = maxCost
	}
	return l
}

func engineConfigs(cfg *config.Config) map[string]runner.EngineConfig {
	out := map[string]runner.EngineConfig{}
	for name, e := range cfg.ContextEngines {
		out[name] = runner.EngineConfig{Command: e.Command, Timeout: e.Timeout, Dir: e.Dir}
	}
	return out
}

// toolOutputDir is where in the state directory the bash tool keeps the
// full output of a command whose result it had to cut.
const toolOutputDir = "tool-output"

// secretValues are the values of the environment's secret variables
// (tools.IsSecretEnv: the provider keys among them), which an export
// redacts wherever they occur.
func secretValues(environ []string) []string {
	var out []string
	for _, kv := range environ {
		if name, value, ok := strings.Cut(kv, "="); ok && value != "" && tools.IsSecretEnv(name) {
			out = append(out, value)
		}
	}
	return out
}
