"""The one conftest of every room: one real Temporal dev server per session, settings, a
stack and a worker per test, sign-in headers, the seeded gazetteer and the fake OpenAI API;
the fixture modules of tests/support/ are registered below as plugins."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from kminer.config import Settings, load_settings
from kminer.devserver import DevServer
from kminer.stack import Stack, embedded_stack
from tests.support.fake_openai import FAKE_API_KEY, AnswersRequests, ServeFakeOpenAi
from tests.support.replay import replay_server

# Fixtures kept beside the stand-ins and helpers they serve.
pytest_plugins = [
    "tests.support.embedded_dkg",
    "tests.support.otnode",
    "tests.support.ui_pages",
]


@pytest.fixture(scope="session")
def temporal_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    root = tmp_path_factory.mktemp("temporal")
    server = DevServer(db_file=root / "temporal.db", log_file=root / "temporal.log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def gazetteer() -> Iterator[list[tuple[str, str, str]]]:
    """Labels and aliases of the seeded demo DKG: (label, UAL, type)."""
    from storage.dkg.embedded import SEED_DIR, EmbeddedDkg

    dkg = EmbeddedDkg(None)
    dkg.ensure_seeded(SEED_DIR)
    yield dkg.gazetteer()
    dkg.close()


@pytest.fixture
def settings(
    tmp_path: Path, temporal_server: DevServer, monkeypatch: pytest.MonkeyPatch
) -> Settings:
    # No model or search keys in tests: the rules policy and the local corpus run.
    for key in ("OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL", "TEMPORAL_ADDRESS"):
        monkeypatch.delenv(key, raising=False)
    base = load_settings(tmp_path / "data")
    # A queue per test keeps workers of other tests away from this test's runs.
    return replace(
        base,
        temporal_address=temporal_server.address,
        task_queue=f"test-{uuid.uuid4().hex[:8]}",
    )


@pytest.fixture
def bearer(settings: Settings) -> Callable[..., dict[str, str]]:
    """Authorization headers for the test stack's API: bearer(role="admin", sub="test")."""
    from api.auth import TokenIssuer, load_secret

    issuer = TokenIssuer(load_secret(settings.data_dir))

    def headers(role: str = "admin", sub: str = "tester") -> dict[str, str]:
        return {"Authorization": f"Bearer {issuer.mint(sub, role)}"}

    return headers


@pytest.fixture
async def stack(settings: Settings) -> AsyncIterator[Stack]:
    async with embedded_stack(settings, with_api=True) as running:
        yield running


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[ServeFakeOpenAi]:
    """Serves a fake chat-completions API answered by the given model (tests/support/fake_openai.py)
    until the test ends: fake_openai(model) -> the base URL ChatOpenAI is given."""
    with ExitStack() as servers:

        def serve(model: AnswersRequests) -> str:
            monkeypatch.setenv("OPENAI_API_KEY", FAKE_API_KEY)
            url = servers.enter_context(replay_server(model.answer))
            return f"{url}/v1"

        yield serve
