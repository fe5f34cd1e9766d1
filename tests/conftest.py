"""Shared fixtures: one real Temporal dev server per session, a worker per test."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from kminer.config import Settings, load_settings
from kminer.devserver import DevServer
from kminer.stack import Stack, embedded_stack


@pytest.fixture(scope="session")
def temporal_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    root = tmp_path_factory.mktemp("temporal")
    server = DevServer(db_file=root / "temporal.db", log_file=root / "temporal.log").start()
    try:
        yield server
    finally:
        server.stop()


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
async def stack(settings: Settings) -> AsyncIterator[Stack]:
    async with embedded_stack(settings, with_api=True) as running:
        yield running
