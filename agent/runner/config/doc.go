// Package config loads steer's configuration (SPEC §11) from layered JSON
// files plus the environment, and owns the model catalogue.
//
// # The files
//
// LoadFiles reads the layers (layers.go): the global file at DefaultPath
// (<os.UserConfigDir()>/steer/config.json, optional), the workspace's
// project file (.steer/config.json, applied only when the workspace is
// trusted), then --config's file on top. Objects merge, anything else is
// replaced; Config.Settings says where each value came from. Load reads
// one file. A file looks like this:
//
//	{
//	  "model": "anthropic/claude-sonnet-4-5",
//	  "aliases": { "sonnet": "anthropic/claude-sonnet-4-5" },
//	  "providers": {
//	    "local": {
//	      "api": "openai-chat",
//	      "baseURL": "http://127.0.0.1:11434/v1",
//	      "models": [ { "id": "qwen3:8b", "contextWindow": 32768 } ]
//	    },
//	    "anthropic": {
//	      "profiles": [ { "id": "anthropic:main", "apiKeyEnv": "ANTHROPIC_API_KEY" } ]
//	    }
//	  },
//	  "agent": { "thinking": "medium", "maxInputBytes": 4194304 },
//	  "tools": { "approval": "ask" },
//	  "ui": { "theme": "auto" }
//	}
//
// Parsing is strict: an unknown key, a value of the wrong type or a bad
// value is an *Error of one line naming the file, the line and the JSON
// path, e.g.
//
//	config.json:12: unknown key "providers.openai.baseUrl" (did you mean "baseURL"?)
//
// # Providers and keys
//
// A provider speaks one API of those Load is given (llm.APIs, the register
// main writes: "openai-chat", "anthropic-messages", "scripted"); another is
// refused, naming them. Keys are referenced, not stored: a profile's
// "apiKeyEnv" names a variable; a literal "apiKey" is accepted. A provider
// without profiles gets one, <name>:default, reading its conventional variable
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY, … as
// the catalogue names them); a local server (loopback or private base URL)
// needs no key. Keys are held as Secret, which prints as "***".
//
// An unset variable is not a mistake in the file: its profile is kept but
// unusable (Profile.Unusable), and a provider none of whose profiles can be
// used says why (Provider.Unusable: "ANTHROPIC_API_KEY is not set"). Its
// models still resolve, so that choosing one can name the variable to set,
// and the other providers work. Config.SecretEnvNames lists the variables
// that hold keys, for the tools to hide.
//
// The environment fills in what the file leaves out: for each of
// ANTHROPIC_API_KEY, OPENAI_API_KEY and OPENROUTER_API_KEY that is set, the
// provider "anthropic", "openai" or "openrouter" is configured unless the
// file already has it. With no file and none of those variables, no real
// provider is configured, Config.Model is "" and the caller uses the
// built-in scripted provider, which always resolves as "scripted".
//
// # Models and the catalogue
//
// Model metadata (context window, max output, reasoning, input kinds,
// prices) comes from charm.land/catwalk's embedded catalogue, matched by the
// provider's kind (catwalk's provider id, found from the provider's name or
// base URL) and the model id; what the file says wins. A provider that lists
// no models offers the catalogue's. The catalogue is parsed once, on first
// use, and never for a configuration without real providers, so that an
// offline start stays fast.
//
// A provider with "discover": true (openai-chat only) has its server list
// its models (agent/runner/discover, wired by the runner): it may list
// none itself, gets no catalogue models in their place, and any id of it
// resolves (Config.ModelOf), since only the server can tell.
//
// # Settings not built yet
//
// A key either works or is refused: a file that sets a key of SPEC §11 whose
// feature steer does not have yet (unbuilt.go; none today) fails to load
// with "not supported yet" and the reason, rather than being accepted and
// ignored.
//
// References ("provider/model", an alias or a bare id) are resolved by
// Config.ResolveRef and Config.ResolveModel; "model", "fallbacks" and
// "aliases" are checked with them at load time.
package config
