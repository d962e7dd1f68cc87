package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

// The LSP messages steer sends and reads, as much of each as it uses
// (LSP 3.17).

type initializeParams struct {
	ProcessID             int               `json:"processId"`
	ClientInfo            clientInfo        `json:"clientInfo"`
	RootURI               string            `json:"rootUri"`
	WorkspaceFolders      []workspaceFolder `json:"workspaceFolders"`
	Capabilities          json.RawMessage   `json:"capabilities"`
	InitializationOptions json.RawMessage   `json:"initializationOptions,omitempty"`
}

type clientInfo struct {
	Name string `json:"name"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// clientCapabilities say that steer takes versioned diagnostics and
// answers workspace/configuration; everything else is left out, so that a
// server offers nothing steer would not read.
var clientCapabilities = json.RawMessage(`{
	"textDocument": {
		"synchronization": {"didSave": true, "dynamicRegistration": false},
		"publishDiagnostics": {"versionSupport": true, "relatedInformation": false}
	},
	"workspace": {"workspaceFolders": true, "configuration": true},
	"window": {"workDoneProgress": false}
}`)

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type textDocumentID struct {
	URI     string `json:"uri"`
	Version int    `json:"version,omitempty"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type contentChange struct {
	Text string `json:"text"`
}

type didChangeParams struct {
	TextDocument   textDocumentID  `json:"textDocument"`
	ContentChanges []contentChange `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument textDocumentID `json:"textDocument"`
}

type publishParams struct {
	URI         string          `json:"uri"`
	Version     *int            `json:"version"`
	Diagnostics []lspDiagnostic `json:"diagnostics"`
}

type lspDiagnostic struct {
	Range struct {
		Start struct {
			Line      int `json:"line"`
			Character int `json:"character"`
		} `json:"start"`
	} `json:"range"`
	Severity Severity `json:"severity"`
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}

type configurationParams struct {
	Items []json.RawMessage `json:"items"`
}

// diagnosticsOf turns a publish's diagnostics for path into steer's.
func diagnosticsOf(path string, in []lspDiagnostic) []Diagnostic {
	out := make([]Diagnostic, 0, len(in))
	for _, d := range in {
		out = append(out, Diagnostic{Path: path, Line: d.Range.Start.Line + 1, Col: d.Range.Start.Character + 1,
			Severity: d.Severity.normal(), Message: d.Message, Source: d.Source})
	}
	return out
}

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// pathOf is the path of a file: URI, "" for any other.
func pathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// languageIDs are LSP's language identifiers of the extensions whose
// identifier is not the extension itself.
var languageIDs = map[string]string{
	"ts": "typescript", "tsx": "typescriptreact", "js": "javascript", "jsx": "javascriptreact",
	"mjs": "javascript", "cjs": "javascript", "py": "python", "rs": "rust",
}

// languageID is the identifier didOpen gives a file of path.
func languageID(path string) string {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	if id, ok := languageIDs[ext]; ok {
		return id
	}
	return ext
}
