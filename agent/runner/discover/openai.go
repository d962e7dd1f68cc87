package discover

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/steer-tui/steer/agent"
)

// windowFields are the fields of a /models entry that servers give a
// model's context window in, in the order they are believed: OpenRouter
// and Together, vLLM, LM Studio, Groq.
var windowFields = []string{"context_length", "max_model_len", "max_context_length", "context_window"}

// openAI lists the models of an OpenAI-compatible server: models is nil
// when the answer (of status status) is no list of models, err a failure
// to reach the server. Entries are read leniently, one by one: a field of
// an unexpected type is not known rather than an error.
func (l lister) openAI(ctx context.Context, url string) (models []agent.Model, status int, err error) {
	status, body, err := l.call(ctx, http.MethodGet, url, nil)
	if err != nil || status != http.StatusOK {
		return nil, status, err
	}
	var list struct {
		Data *[]map[string]any `json:"data"`
	}
	if json.Unmarshal(body, &list) != nil || list.Data == nil {
		return nil, status, nil
	}
	models = []agent.Model{}
	for _, entry := range *list.Data {
		if id, _ := entry["id"].(string); id != "" {
			models = append(models, agent.Model{ID: id, ContextWindow: window(entry)})
		}
	}
	return models, status, nil
}

// window is the context window an entry of /models gives, 0 when none:
// one of windowFields, else llama.cpp's meta.n_ctx_train.
func window(entry map[string]any) int {
	for _, f := range windowFields {
		if n := positive(entry[f]); n > 0 {
			return n
		}
	}
	meta, _ := entry["meta"].(map[string]any)
	return positive(meta["n_ctx_train"])
}
