package discover

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// Ollama's capabilities (api/show) that say what a model can do.
const (
	capCompletion = "completion"
	capVision     = "vision"
	capThinking   = "thinking"
)

// showParallel bounds the /api/show requests of one listing in flight.
const showParallel = 4

type ollamaTags struct {
	// Models is nil when the answer has no "models" list: not Ollama.
	Models *[]struct {
		Name  string `json:"name"`
		Model string `json:"model"`
	} `json:"models"`
}

type ollamaShow struct {
	ModelInfo    map[string]any `json:"model_info"`
	Capabilities []string       `json:"capabilities"`
}

// ollama lists the models of an Ollama server at root: ollama is false for
// a server that answers /api/tags with anything but Ollama's list, and err
// is a failure to reach it at all.
func (l lister) ollama(ctx context.Context, root string) (models []agent.Model, ollama bool, err error) {
	status, body, err := l.call(ctx, http.MethodGet, root+"/api/tags", nil)
	if err != nil {
		return nil, false, err
	}
	var tags ollamaTags
	if status != http.StatusOK || json.Unmarshal(body, &tags) != nil || tags.Models == nil {
		return nil, false, nil
	}
	names := make([]string, 0, len(*tags.Models))
	for _, m := range *tags.Models {
		if name := cmp.Or(m.Model, m.Name); name != "" {
			names = append(names, name)
		}
	}
	shown := l.showAll(ctx, root, names)
	for i, name := range names {
		m, ok := ollamaModel(name, shown[i])
		if ok {
			models = append(models, m)
		}
	}
	return models, true, nil
}

// showAll asks /api/show of every name, showParallel at a time; a model
// whose show fails has a nil entry.
func (l lister) showAll(ctx context.Context, root string, names []string) []*ollamaShow {
	out := make([]*ollamaShow, len(names))
	slots := make(chan struct{}, showParallel)
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			// "name" is what Ollama before 0.5 reads, "model" what it reads now.
			status, body, err := l.call(ctx, http.MethodPost, root+"/api/show", map[string]string{"model": name, "name": name})
			var show ollamaShow
			if err == nil && status == http.StatusOK && json.Unmarshal(body, &show) == nil {
				out[i] = &show
			}
		})
	}
	wg.Wait()
	return out
}

// ollamaModel is the model name as its show describes it; false for one
// that cannot complete a prompt (an embedding model). Without a show, only
// the name is known.
func ollamaModel(name string, show *ollamaShow) (agent.Model, bool) {
	m := agent.Model{ID: name}
	if show == nil {
		return m, true
	}
	if len(show.Capabilities) > 0 && !slices.Contains(show.Capabilities, capCompletion) {
		return agent.Model{}, false
	}
	m.ContextWindow = contextLength(show.ModelInfo)
	if slices.Contains(show.Capabilities, capVision) {
		m.Input = []string{"text", "image"}
	}
	m.Reasoning = slices.Contains(show.Capabilities, capThinking)
	return m, true
}

// contextLength is model_info's "<architecture>.context_length", else the
// one key of that suffix it has; 0 when it has none.
func contextLength(info map[string]any) int {
	arch, _ := info["general.architecture"].(string)
	if n := positive(info[arch+".context_length"]); arch != "" && n > 0 {
		return n
	}
	var found []any
	for k, v := range info {
		if strings.HasSuffix(k, ".context_length") {
			found = append(found, v)
		}
	}
	if len(found) != 1 { // several: none is surely the model's
		return 0
	}
	return positive(found[0])
}

// positive is a JSON number that is a positive whole number, else 0.
func positive(v any) int {
	f, ok := v.(float64)
	if !ok || f < 1 || f != float64(int(f)) {
		return 0
	}
	return int(f)
}
