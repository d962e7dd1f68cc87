// Package lsp gives the file tools the diagnostics of language servers
// (gopls, typescript-language-server, pyright, rust-analyzer, or any
// configured one): it starts a server for the first file of its language,
// keeps the server's copy of each file the tools wrote in step, and waits
// briefly for the diagnostics the server publishes for the new text.
//
// # Lifecycle
//
// A Manager is made once per process from the servers' configurations
// (Resolve adds the defaults found on PATH) and starts nothing: a server
// starts, in a process group of its own rooted at the workspace, when a
// tool first touches a file of one of its filetypes. Its start (initialize
// and the first package load) is bounded by StartTimeout, every later wait
// for diagnostics by PublishWait after the change. A server that exits,
// writes what is not JSON-RPC, or lets a request or a write pass its
// timeout is marked failed with the reason and its stderr (the first line
// and the last ones), and stays failed until Restart: the tools then say
// so, and a write or an edit still succeeds. Close shuts every server down
// (shutdown, exit) and kills what is left of its process group.
//
// # Protocol
//
// JSON-RPC 2.0 with LSP's Content-Length framing comes from
// github.com/sourcegraph/jsonrpc2 (small, no dependencies the binary pulls
// in); the few LSP messages steer sends and reads are declared in
// protocol.go.
package lsp
