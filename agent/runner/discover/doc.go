// Package discover lists the models a provider's server offers, for the
// providers configured with "discover": true.
//
// # Asking a server
//
// List asks Ollama's API first, on the base URL's host: a server that
// answers GET /api/tags is Ollama, and POST /api/show of each model gives
// its context length (model_info's "<architecture>.context_length") and
// capabilities (vision, thinking; a model that cannot complete, such as an
// embedding model, is left out). Any other server is asked GET <base
// URL>/models, OpenAI's list: ids, and a context window where the server
// gives one (context_length, max_model_len, max_context_length,
// context_window, llama.cpp's meta.n_ctx_train). A server that cannot be
// listed is an *Error whose Reason is one short line.
//
// # The cache
//
// A Cache holds the last listing of every discovering provider for the
// process, so that reading the models (Listed) never waits on a network
// and starts nothing: RefreshStale starts, in the background, the listings
// older than Options.MaxAge, and Refresh lists every server again and
// waits (the model picker's /model). Each listing is bounded by
// Options.Timeout. Nothing is listed until one of them is called, so that
// who tells the user of an outage is listening by then. After every listing the Cache
// tells its watchers what changed (Change); Report marks the news a user
// should hear once: the first failure of an outage, and the first success
// after it.
//
// # Merging
//
// Merge joins a provider's configured models with those its server lists:
// the configuration wins field by field (Fill), and the models only the
// server lists follow, in its order. Same matches ids as Ollama does
// ("qwen3" is "qwen3:latest").
package discover
