package msgs

// InspectMCP is the MCP servers inspector, read again at once when a
// server changes.
const InspectMCP Inspector = "mcp"

// RestartMCPMsg asks to restart MCP server Server (the /mcp inspector's
// r): a failed one is started again, a running one reconnected.
type RestartMCPMsg struct{ Server string }

// LoginMCPMsg asks to sign in to remote MCP server Server (the /mcp
// inspector's l), in the browser.
type LoginMCPMsg struct{ Server string }
