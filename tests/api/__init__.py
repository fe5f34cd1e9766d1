"""The HTTP API (api/) over a real stack: REST runs and decisions, sign-in and roles, the
AG-UI event stream, MCP, metrics, the OpenAPI contract and the chat UI's routes."""
