"""Long-term memory read/write activities over the SQL memory repository."""

from __future__ import annotations

import asyncio

from temporalio import activity

from storage.memory_repo import MemoryRepository
from workflows.tool_contracts import AppendNotesInput, AppendNotesOutput, LoadNotesInput


class MemoryActivities:
    def __init__(self, repo: MemoryRepository) -> None:
        self._repo = repo

    @activity.defn(name="load_memory_notes")
    async def load_memory_notes(self, inp: LoadNotesInput) -> dict[str, str]:
        return await asyncio.to_thread(self._repo.read_tags, inp.tags)

    @activity.defn(name="append_memory_notes")
    async def append_memory_notes(self, inp: AppendNotesInput) -> AppendNotesOutput:
        def body() -> AppendNotesOutput:
            outcomes = [
                self._repo.append(
                    run_id=inp.runId, step=inp.step, tag=tag, name=inp.note, lines=inp.lines
                )
                for tag in inp.tags
            ]
            return AppendNotesOutput(
                paths=[o.path for o in outcomes], appended=sum(o.appended for o in outcomes)
            )

        return await asyncio.to_thread(body)
