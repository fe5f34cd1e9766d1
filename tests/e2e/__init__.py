"""kminer as an operator runs it, in separate processes: the CLI, `kminer up`, the Compose
topology outside Docker, the demo, clean exits and shutdowns, and chaos (the server, the
worker or the database killed mid-run)."""
