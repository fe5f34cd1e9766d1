"""How an MCP client finds out how to sign in to /mcp: OAuth 2.0 Protected Resource
Metadata (RFC 9728), and the `WWW-Authenticate` challenge of a 401 that points to it.

The metadata of a resource lives at its identifier with `/.well-known/oauth-protected-resource`
put between the host and the path: `/mcp` is described at
`/.well-known/oauth-protected-resource/mcp` (its `resource` is the `/mcp` URL itself, which
a client checks against the URL it called), and the API as a whole, whose resource is the
origin, at `/.well-known/oauth-protected-resource`. The tokens are the API's own bearer
JWTs (`kminer token`); `authorization_servers` is listed only when the operator names some
(`KM_OAUTH_AUTHORIZATION_SERVERS`), since kminer runs none itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from starlette.responses import JSONResponse
from starlette.types import Scope

from api.auth import ROLES

WELL_KNOWN = "/.well-known/oauth-protected-resource"
# RFC 6750 3: an error_description is printable ASCII without '"' and '\'.
_NOT_IN_DESCRIPTION = re.compile(r"[^\x20\x21\x23-\x5b\x5d-\x7e]")


@dataclass(frozen=True)
class ResourceServer:
    """What the operator says of this API: its public base URL (KM_PUBLIC_URL; empty: the
    scheme and host each request came in on) and the authorization servers whose tokens it
    takes (KM_OAUTH_AUTHORIZATION_SERVERS; none: tokens from `kminer token`)."""

    public_url: str = ""
    authorization_servers: tuple[str, ...] = ()

    def _origin_and_prefix(self, scope: Scope) -> tuple[str, str]:
        base = urlsplit(self.public_url or str(Request(scope).base_url))
        return f"{base.scheme}://{base.netloc}", base.path.rstrip("/")

    def resource(self, scope: Scope, resource_path: str) -> str:
        """The identifier of the resource at `resource_path` ("" for the API as a whole)."""
        origin, prefix = self._origin_and_prefix(scope)
        return f"{origin}{prefix}{resource_path}"

    def metadata_url(self, scope: Scope, resource_path: str) -> str:
        """Where its metadata is: the well-known segment between the host and the path."""
        origin, prefix = self._origin_and_prefix(scope)
        return f"{origin}{WELL_KNOWN}{prefix}{resource_path}"

    def metadata(self, scope: Scope, resource_path: str, name: str) -> dict[str, Any]:
        doc: dict[str, Any] = {"resource": self.resource(scope, resource_path)}
        if self.authorization_servers:
            doc["authorization_servers"] = list(self.authorization_servers)
        doc |= {
            # Only the Authorization header: tokens never ride in a body or a query.
            "bearer_methods_supported": ["header"],
            # A token's role, and every role below it, are its scopes (api/mcp/server.py).
            "scopes_supported": list(ROLES),
            "resource_name": name,
        }
        return doc


def challenge(metadata_url: str, error: str | None = None, description: str = "") -> str:
    """A Bearer challenge (RFC 6750 3) naming the metadata (RFC 9728 5.1). A request that
    sent no token gets no error code; a token that failed gets `invalid_token`."""
    params = []
    if error:
        params.append(f'error="{error}"')
        if description:
            params.append(f'error_description="{_NOT_IN_DESCRIPTION.sub("?", description)}"')
    params.append(f'resource_metadata="{metadata_url}"')
    return "Bearer " + ", ".join(params)


def publish_metadata(app: FastAPI, resource: ResourceServer, mcp_path: str) -> None:
    """Serve the two metadata documents (open, like /healthz: they hold nothing secret)."""

    def route(resource_path: str, name: str) -> Any:
        async def metadata(request: Request) -> JSONResponse:
            doc = resource.metadata(request.scope, resource_path, name)
            # Public by design: a browser-based MCP client reads it from another origin.
            return JSONResponse(doc, headers={"Access-Control-Allow-Origin": "*"})

        return metadata

    app.add_api_route(WELL_KNOWN + mcp_path, route(mcp_path, "Knowledge Miner MCP tools"),
                      methods=["GET"], include_in_schema=False)  # fmt: skip
    app.add_api_route(WELL_KNOWN, route("", "Knowledge Miner API"),
                      methods=["GET"], include_in_schema=False)  # fmt: skip
