"""How an MCP client learns to sign in to /mcp: the 401's `WWW-Authenticate` names the
endpoint's OAuth protected-resource metadata (RFC 9728), read here with the mcp SDK's own
client helpers, while the API's bearer tokens keep working."""

from __future__ import annotations

from typing import Any

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.auth.utils import extract_resource_metadata_from_www_auth
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import ProtectedResourceMetadata
from temporalio.client import Client

from api.app import create_app
from api.auth import TokenIssuer, load_secret
from api.mcp.resource_metadata import ResourceServer
from kminer.config import Settings, load_settings
from kminer.devserver import DevServer
from kminer.stack import Stack

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
ACCEPT = {"Accept": "application/json, text/event-stream"}
WELL_KNOWN = "/.well-known/oauth-protected-resource"


async def test_a_client_refused_at_mcp_follows_the_challenge_to_the_metadata(
    stack: Stack, settings: Settings, bearer: Any
) -> None:
    base = stack.api_url or ""
    url = f"{base}/mcp"
    expired = TokenIssuer(load_secret(settings.data_dir)).mint("old", "admin", ttl_seconds=-5)
    async with httpx2.AsyncClient(timeout=30) as http:
        refused = await http.post(url, json=PING, headers=ACCEPT)
        assert refused.status_code == 401
        # No token sent: a bare challenge naming the metadata, no error code (RFC 6750 3.1).
        challenge = refused.headers["www-authenticate"]
        assert challenge.startswith("Bearer ") and "error=" not in challenge
        where = extract_resource_metadata_from_www_auth(refused)
        assert where == f"{base}{WELL_KNOWN}/mcp"

        found = await http.get(where)
        assert found.status_code == 200
        assert found.headers["content-type"] == "application/json"
        doc = found.json()
        # RFC 9728 3.3: the client checks `resource` against the URL it called.
        assert doc["resource"] == url
        assert doc["bearer_methods_supported"] == ["header"]
        assert doc["scopes_supported"] == ["miner", "reviewer", "admin"]
        assert doc["resource_name"]
        assert "authorization_servers" not in doc, "none configured: tokens from kminer token"

        whole = (await http.get(f"{base}{WELL_KNOWN}")).json()
        assert whole["resource"] == base  # the API as a whole: the origin, no path

        for token, reason in (("garbage", "invalid token"), (expired, "token expired")):
            signed = {**ACCEPT, "Authorization": f"Bearer {token}"}
            bad = await http.post(url, json=PING, headers=signed)
            assert bad.status_code == 401
            said = bad.headers["www-authenticate"]
            assert 'error="invalid_token"' in said and reason in said
            assert extract_resource_metadata_from_www_auth(bad) == where

    # The bearer tokens of the API still sign in as before.
    headers = bearer(role="miner", sub="bob")
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                assert "knowledge-miner" in {t.name for t in (await session.list_tools()).tools}


async def test_behind_a_proxy_the_metadata_names_the_public_url_and_the_authorization_servers(
    temporal_server: DevServer,
) -> None:
    client = await Client.connect(temporal_server.address)
    resource = ResourceServer("https://miner.example.org/kminer", ("https://auth.example.org",))
    app = create_app(client, "unused-queue", jwt_secret="s" * 40, resource=resource)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://10.0.0.7:8000") as http:
        refused = await http.post("/mcp", json=PING, headers=ACCEPT)
        assert refused.status_code == 401
        # The well-known segment goes between the host and the path (RFC 9728 3.1).
        where = "https://miner.example.org/.well-known/oauth-protected-resource/kminer/mcp"
        assert f'resource_metadata="{where}"' in refused.headers["www-authenticate"]
        # The proxy routes that URL to the API's own /.well-known/oauth-protected-resource/mcp.
        doc = (await http.get(f"{WELL_KNOWN}/mcp")).json()
    assert doc["resource"] == "https://miner.example.org/kminer/mcp"
    assert doc["authorization_servers"] == ["https://auth.example.org"]
    # What the SDK's OAuth client requires of the document (at least one server) holds.
    parsed = ProtectedResourceMetadata.model_validate(doc)
    assert [str(s).rstrip("/") for s in parsed.authorization_servers] == [
        "https://auth.example.org"
    ]


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("KM_PUBLIC_URL", "miner.example.org"),
        ("KM_PUBLIC_URL", "https://a.example https://b.example"),
        ("KM_OAUTH_AUTHORIZATION_SERVERS", "https://auth.example.org/?tenant=x"),
        ("KM_OAUTH_AUTHORIZATION_SERVERS", "ftp://auth.example.org"),
    ],
)
def test_a_url_that_cannot_be_named_in_the_metadata_is_refused_at_start(
    variable: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=variable):
        load_settings()


def test_the_configured_urls_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KM_PUBLIC_URL", "https://miner.example.org/")
    monkeypatch.setenv("KM_OAUTH_AUTHORIZATION_SERVERS", "https://a.example, https://b.example")
    settings = load_settings()
    assert settings.public_url == "https://miner.example.org"
    assert settings.oauth_authorization_servers == ("https://a.example", "https://b.example")
