"""The HTTP face of the miner, laid out as FastAPI's "bigger applications".

`app.py` assembles the app; `routes/` holds one router per resource and `mcp/` the MCP
server and its tools. Below them: the dependencies (`deps.py`: Temporal, the worker's
services, a run the caller may see; `auth.py`: who calls, by bearer JWT and role), the
error answers (`problems.py`), request limits and start throttling (`limits.py`,
`throttle.py`), and what the routes build on (`workspace_reads.py`, `run_listing.py`,
`ag_ui_events.py`). The chat UI's static files are in `ui/`. Settings are read once, in
`kminer/config.py`, and handed to `app.create_app`.
"""
