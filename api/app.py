"""The FastAPI app, assembled: limits, sign-in, routers by resource, MCP, the chat UI."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from temporalio.client import Client

from api import problems
from api.auth import TokenIssuer
from api.limits import DEFAULT_MAX_BYTES, RequestLimits
from api.mcp.resource_metadata import ResourceServer
from api.mcp.server import mount_mcp
from api.routes import audit, blobs, dkg, health, me, memory, run_events, run_files, runs
from api.routes.ui import mount_ui
from api.throttle import StartLimiter
from api.workspace_reads import WorkspaceReader


def create_app(
    client: Client,
    task_queue: str,
    services: Any | None = None,
    max_body_bytes: int = DEFAULT_MAX_BYTES,
    jwt_secret: str = "",
    runs_per_minute: int = 30,
    children: Callable[[], dict[str, Any]] | None = None,
    resource: ResourceServer | None = None,
) -> FastAPI:
    """The API over `client`; `services` when this process holds the worker's (`kminer
    up`), `children` the state of the parts it supervises (for /healthz, /readyz), and
    `resource` what its protected-resource metadata says (api/mcp/resource_metadata.py)."""
    if not jwt_secret:
        raise ValueError("the API needs a JWT secret (api.auth.load_secret)")
    app = FastAPI(title="Knowledge Miner", version="0.1.0")
    app.add_middleware(RequestLimits, max_bytes=max_body_bytes)
    app.state.client = client
    app.state.services = services
    app.state.task_queue = task_queue
    app.state.worker_ready = services is not None
    app.state.children = children
    app.state.issuer = TokenIssuer(jwt_secret)
    app.state.resource_server = resource or ResourceServer()
    # Signs list cursors, so no forged page token reaches Temporal (api/run_listing.py).
    app.state.cursor_key = hashlib.sha256(b"kminer-run-cursor\n" + jwt_secret.encode()).digest()
    app.state.start_limiter = StartLimiter(runs_per_minute)
    app.state.workspaces = WorkspaceReader(client.data_converter)
    problems.install(app)
    for router in (
        health.router,
        runs.router,
        run_files.router,
        run_events.router,
        audit.router,
        dkg.router,
        blobs.router,
        memory.router,
        me.router,
    ):
        app.include_router(router)
    # The MCP tools over streamable HTTP, behind the same bearer tokens as /api.
    mount_mcp(app, client, task_queue)
    mount_ui(app)  # the chat UI at `/` (api/routes/ui.py)
    return app
