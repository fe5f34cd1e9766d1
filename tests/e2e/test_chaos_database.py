"""Chaos: the database goes away while a run writes memory notes and publishes.

The worker reaches the real Postgres on 127.0.0.1:5432 through a TCP proxy the test
can cut: open connections are dropped and new ones refused. The activities that touch
the database fail, Temporal retries them, and when the database is back every note line
and every published asset is written exactly once.
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from dataclasses import replace

import pytest
from sqlmodel import Session, select
from temporalio.api.enums.v1 import EventType

from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.stack import embedded_stack
from storage.sql.db import make_engine
from storage.sql.memory_repo import MemoryRepository
from storage.sql.tables import MemorySection, PublishRecord
from temporal_client.runs import start_run
from tests.support.postgres import POSTGRES_ADDRESS, fresh_postgres_database, postgres_answers

QUESTION = "Which suppliers of lithium carry geopolitical risk?"


class CuttableProxy:
    """A loopback TCP proxy to Postgres, on its own thread and event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.cut = False
        self.refused = 0
        self.streams: set[asyncio.StreamWriter] = set()

    def start(self) -> int:
        self.thread.start()
        opened = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._serve, "127.0.0.1", 0), self.loop
        )
        self.server = opened.result(10)
        return self.server.sockets[0].getsockname()[1]

    def set_cut(self, cut: bool) -> None:
        """Cut (drop every open connection, refuse new ones) or restore; returns once done."""

        async def apply() -> None:
            self.cut = cut
            if cut:
                for stream in list(self.streams):
                    stream.close()
                self.streams.clear()

        asyncio.run_coroutine_threadsafe(apply(), self.loop).result(5)

    def stop(self) -> None:
        async def close() -> None:  # on the proxy's own loop: asyncio is not thread-safe
            self.server.close()
            for stream in list(self.streams):
                stream.close()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.cut:
            self.refused += 1
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(*POSTGRES_ADDRESS)
        self.streams |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while chunk := await reader.read(65536):
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.streams.discard(writer)
            writer.close()


async def retried_activities(handle) -> list[str]:
    """Activities, and local activities (their markers), that needed more than one attempt."""
    retried = []
    async for event in handle.fetch_history_events():
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            attrs = event.activity_task_started_event_attributes
            if attrs.attempt > 1:
                retried.append(f"activity {event.event_id}")
        elif event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED:
            marker = event.marker_recorded_event_attributes
            if marker.marker_name == "core_local_activity":
                data = json.loads(marker.details["data"].payloads[0].data)
                if data.get("attempt", 1) > 1:
                    retried.append(f"local activity {data.get('activity_type')}")
    return retried


async def test_a_database_outage_is_retried_and_writes_land_exactly_once(
    settings: Settings,
) -> None:
    if not postgres_answers():
        pytest.skip("Postgres is not answering on 127.0.0.1:5432: the outage needs a server")
    with fresh_postgres_database("km_chaos") as direct:
        await _outage(settings, direct)


async def _outage(settings: Settings, direct: str) -> None:
    """A run against the database `direct` names, reached through the cuttable proxy."""
    proxy = CuttableProxy()
    port = proxy.start()
    tag = f"chaos{uuid.uuid4().hex[:10]}"
    url = direct.replace("127.0.0.1:5432", f"127.0.0.1:{port}")
    try:
        own = replace(settings, database_url=url)
        async with embedded_stack(own, with_api=False) as stack:
            proxy.set_cut(True)
            handle = await start_run(
                stack.client,
                own.task_queue,
                MiningRequest(query=QUESTION, domainTags=[tag], review="auto"),
            )
            deadline = asyncio.get_running_loop().time() + 60
            while proxy.refused < 3 and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.2)
            await asyncio.sleep(2)
            refused = proxy.refused
            proxy.set_cut(False)
            result = await asyncio.wait_for(handle.result(), 240)
            retried = await retried_activities(handle)
    finally:
        proxy.stop()

    assert refused >= 3, "the outage was felt"
    assert retried, "some activity needed another attempt"
    assert result.phase == Phase.COMPLETED

    engine = make_engine(direct)
    with Session(engine) as session:
        sections = session.exec(
            select(MemorySection).where(MemorySection.run_id == handle.id)
        ).all()
        records = session.exec(select(PublishRecord).where(PublishRecord.run_id == handle.id)).all()
    notes = MemoryRepository(engine).list_notes(tag)
    engine.dispose()
    steps = [(s.name, s.step) for s in sections]
    assert steps and len(steps) == len(set(steps)), "one run section per note and step"
    assert {n.name for n in notes} == {name for name, _ in steps}
    for note in notes:
        for name, step in steps:
            if name == note.name:
                section = f"## Run {handle.id} ({step})"
                assert note.content.count(section) == 1, f"{note.name}: {section} written once"
    published = [p.candidateId for p in result.publishedAssets]
    assert sorted(r.candidate_id for r in records) == sorted(published)
    assert len({r.ual for r in records}) == len(records), "no asset minted twice"
