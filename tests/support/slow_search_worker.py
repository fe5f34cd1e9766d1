"""A real worker whose search backend is slow for every query but one, logging each call.

    python -m tests.support.slow_search_worker LOG SECONDS FAST_QUERY

Run as a subprocess by tests/workflows/test_research_kill.py, which SIGKILLs it mid-gathering.
Settings come from the environment (KM_DATA_DIR, KM_TASK_QUEUE, TEMPORAL_ADDRESS).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from kminer.config import load_settings
from kminer.worker import build_worker, connect, open_services


async def main(log: Path, seconds: float, fast: str) -> None:
    settings = load_settings()
    services = open_services(settings)
    inner = services.search.search

    def search(query: str, max_results: int) -> list[dict[str, Any]]:
        with log.open("a") as out:
            out.write(f"start\t{query}\n")
        if query != fast:
            time.sleep(seconds)
        hits = inner(query, max_results)
        with log.open("a") as out:
            out.write(f"done\t{query}\n")
        return hits

    services.search.search = search
    client = await connect(settings, settings.temporal_address or "", services.engine)
    async with build_worker(client, settings, services):
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3]))
