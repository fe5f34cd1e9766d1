"""The miner as the MCP tool `knowledge-miner`: `server` wires the transports and says who
calls (stdio for `kminer mcp`, streamable HTTP at `/mcp`); `tools` does the work."""
