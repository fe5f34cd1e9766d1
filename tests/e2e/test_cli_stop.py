"""A stopped `kminer mine` / `kminer batch` ends on its one line, not on asyncio's noise."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from temporal_client.runs import settle


async def test_a_result_task_that_failed_as_the_server_went_away_counts_as_seen() -> None:
    reported: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: reported.append(ctx))

    async def server_went_away() -> None:
        raise ConnectionError("transport error")

    failed = asyncio.ensure_future(server_went_away())
    await asyncio.sleep(0)
    settle(failed)
    del failed
    gc.collect()
    assert reported == []


async def test_a_result_task_still_waiting_is_cancelled() -> None:
    pending = asyncio.ensure_future(asyncio.sleep(10))
    settle(pending)
    await asyncio.sleep(0)
    assert pending.cancelled()
