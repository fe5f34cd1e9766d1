"""The miner as an MCP server: one set of tools, served over stdio and streamable HTTP.

`kminer mcp` serves it over stdio to the local user (principal `mcp:<user>`, acting as a
reviewer); `kminer up` serves it at `/mcp` beside the REST API, behind the same bearer
JWTs (any role mines and reads its runs, `reviewer` decides). The tools themselves live
in `api/mcp/tools.py`; this module only says who is calling and wires the transports.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from starlette.authentication import AuthCredentials
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from temporalio.client import Client

from api.auth import ISSUER, ROLES, Principal, TokenIssuer
from api.mcp.resource_metadata import ResourceServer, challenge, publish_metadata
from api.mcp.tools import Admit, ClientSource, McpDecision, MinerTools, Report, mining_request
from contracts.model_calls import ModelLimits

SERVER_NAME = "knowledge-miner"
MCP_PATH = "/mcp"

WhoCalls = Callable[[Context], Principal]

MINE_DESCRIPTION = (
    "Mine Knowledge Assets for a question: a durable Temporal run searches the corpus and "
    "the OriginTrail DKG, proposes JSON-LD assets, scores them and publishes what is "
    "approved. Progress notifications follow its phases and todos. With review 'auto' it "
    "returns the KnowledgeMinerResponse JSON (summary, answer, candidateAssets, domainTags, "
    "memoryWrites, ...); with review 'required' it returns once the run waits in REVIEW: "
    "{runId, phase, pendingApprovals, candidates}; decide with knowledge-miner-decide."
)
DECIDE_DESCRIPTION = (
    "Approve, edit or reject candidates of a run waiting in REVIEW (reviewer role). The "
    "batch is applied whole or refused with the reason. If the run then completes within "
    "a short wait, its KnowledgeMinerResponse JSON is returned; otherwise where it stands."
)
STATUS_DESCRIPTION = "Where a run stands: phase, todos, pending approvals and its answer if any."


def _reporter(ctx: Context) -> Report:
    """Progress notifications numbered in order (a no-op if the caller sent no token)."""
    sent = 0

    async def report(line: str) -> None:
        nonlocal sent
        sent += 1
        await ctx.report_progress(sent, None, line)

    return report


def build_server(
    client: Client | ClientSource, task_queue: str, who_calls: WhoCalls, admit: Admit | None = None
) -> MCPServer:
    """The server both transports share; who calls (and the API's rate limit) differ.
    `client`: Temporal's client, or how to get it once it is there (`kminer mcp` serves
    while the stack it brought up is still starting)."""
    tools = MinerTools(client, task_queue, admit)
    # WARNING: MCPServer configures root logging, and INFO would flood `kminer up`.
    server: MCPServer = MCPServer(SERVER_NAME, log_level="WARNING")

    @server.tool(name="knowledge-miner", description=MINE_DESCRIPTION)
    async def knowledge_miner(
        query: Annotated[str, Field(description="the question to mine")],
        ctx: Context,
        domainTags: Annotated[
            tuple[str, ...],
            Field(description="domain tags, e.g. supply_chain ('#' stripped, lowercased)"),
        ] = (),
        maxIterations: Annotated[
            int, Field(ge=1, le=10, description="search rounds per subagent")
        ] = 4,
        review: Annotated[
            Literal["required", "auto"],
            Field(description="'auto' publishes what validation accepts; 'required' waits"),
        ] = "auto",
        modelLimits: Annotated[
            ModelLimits | None,
            Field(description="this run's model-call limits over the worker's (a slow model)"),
        ] = None,
    ) -> dict[str, Any]:
        request = mining_request(query, list(domainTags), maxIterations, review, modelLimits)
        return await tools.mine(who_calls(ctx), request, _reporter(ctx))

    @server.tool(name="knowledge-miner-decide", description=DECIDE_DESCRIPTION)
    async def knowledge_miner_decide(
        runId: Annotated[str, Field(description="the run in REVIEW")],
        decisions: Annotated[list[McpDecision], Field(min_length=1)],
        ctx: Context,
    ) -> dict[str, Any]:
        return await tools.decide(who_calls(ctx), runId, decisions, _reporter(ctx))

    @server.tool(name="knowledge-miner-status", description=STATUS_DESCRIPTION)
    async def knowledge_miner_status(
        runId: Annotated[str, Field(description="a run id from knowledge-miner")],
        ctx: Context,
    ) -> dict[str, Any]:
        return await tools.status(who_calls(ctx), runId)

    return server


# -- stdio ---------------------------------------------------------------------


async def serve_stdio(client: Client | ClientSource, task_queue: str, principal: str) -> None:
    """Serve until stdin closes; the local user is trusted as a reviewer, like `kminer review`.

    While it serves, the SDK keeps stdout for the protocol alone: file descriptor 1 points
    at stderr, so stray output of this process and its children misses the wire."""
    local = Principal(sub=principal, role="reviewer")
    await build_server(client, task_queue, lambda _ctx: local).run_stdio_async()


# -- streamable HTTP -------------------------------------------------------------


def http_caller(ctx: Context) -> Principal:
    """Who signed the request: BearerGate put the verified token on the ASGI scope."""
    request = ctx.request_context.request
    user = request.scope.get("user") if request is not None else None
    if not isinstance(user, AuthenticatedUser):
        raise ToolError("sign in: send Authorization: Bearer <token>")
    token = user.access_token
    return Principal(sub=token.subject or token.client_id, role=(token.claims or {})["role"])


class BearerGate:
    """ASGI: the API's bearer JWTs in front of the MCP endpoint (401 without a good one).

    A 401's `WWW-Authenticate` names the endpoint's protected-resource metadata (RFC 9728),
    where a client learns how to sign in. The verified token goes on the scope as the SDK's
    AuthenticatedUser, where the tools read who calls (and a stateful session manager would
    bind its sessions to it).
    """

    def __init__(self, app: ASGIApp, issuer: TokenIssuer, resource: ResourceServer) -> None:
        self._app = app
        self._issuer = issuer
        self._resource = resource

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = _bearer_token(scope)
        try:
            if raw is None:
                raise HTTPException(401, "sign in: send Authorization: Bearer <token>")
            who = self._issuer.verify(raw)
        except HTTPException as exc:
            where = self._resource.metadata_url(scope, MCP_PATH)
            # No token: no error code (RFC 6750 3.1); a token that failed: invalid_token.
            error = None if raw is None else "invalid_token"
            header = challenge(where, error, str(exc.detail))
            refusal = JSONResponse({"detail": exc.detail}, exc.status_code,
                                   {"WWW-Authenticate": header})  # fmt: skip
            await refusal(scope, receive, send)
            return
        # Scopes are the roles the token carries, its own and those below it.
        scopes = list(ROLES[: ROLES.index(who.role) + 1])
        token = AccessToken(
            token=raw,
            client_id=who.sub,
            scopes=scopes,
            subject=who.sub,
            claims={"role": who.role, "iss": ISSUER},
        )
        scope["user"] = AuthenticatedUser(token)
        scope["auth"] = AuthCredentials(scopes)
        await self._app(scope, receive, send)


def _bearer_token(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or []:
        if name == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                return credentials.strip()
    return None


def mount_mcp(app: FastAPI, client: Client, task_queue: str) -> None:
    """Serve the tools at /mcp and run their session manager for the app's lifetime.

    The MCP app's own lifespan would not run inside FastAPI, so the session manager is
    entered from the API's lifespan instead.
    """
    server = build_server(client, task_queue, http_caller, app.state.start_limiter.take)
    # Stateless: every call stands alone (the run's state is in Temporal), so no session
    # outlives its request, none is lost when the API restarts, and a stop waits on nothing.
    server.streamable_http_app(streamable_http_path=MCP_PATH, stateless_http=True)
    manager = server.session_manager
    resource: ResourceServer = app.state.resource_server
    gate = BearerGate(manager.handle_request, app.state.issuer, resource)
    app.add_route(MCP_PATH, gate, include_in_schema=False)
    publish_metadata(app, resource, MCP_PATH)
    previous = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(asgi_app: Any) -> AsyncIterator[Any]:
        async with manager.run(), previous(asgi_app) as state:
            yield state

    app.router.lifespan_context = lifespan
