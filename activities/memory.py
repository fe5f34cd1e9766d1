"""Long-term memory read/write activities over the SQL memory repository."""

from __future__ import annotations

import asyncio

from temporalio import activity

from activities.run_context import current_principal
from contracts.activity_names import APPEND_MEMORY_NOTES, LOAD_MEMORY_NOTES
from contracts.tools import AppendNotesInput, AppendNotesOutput, LoadNotesInput
from storage.sql.audit_log import AuditLog
from storage.sql.memory_repo import MemoryRepository
from storage.sql.note_view import DEFAULT_NOTE_CHARS


class MemoryActivities:
    def __init__(
        self,
        repo: MemoryRepository,
        audit: AuditLog | None = None,
        note_chars: int = DEFAULT_NOTE_CHARS,
    ) -> None:
        self._repo = repo
        self._audit = audit
        self._note_chars = note_chars

    @activity.defn(name=LOAD_MEMORY_NOTES)
    async def load_memory_notes(self, inp: LoadNotesInput) -> dict[str, str]:
        """The notes a run reads: each at most `note_chars` characters (the head and the
        latest run sections, storage/sql/note_view.py, read from those rows only); the
        notes themselves stay whole."""
        return await asyncio.to_thread(self._repo.read_tags, inp.tags, self._note_chars)

    @activity.defn(name=APPEND_MEMORY_NOTES)
    async def append_memory_notes(self, inp: AppendNotesInput) -> AppendNotesOutput:
        def body() -> AppendNotesOutput:
            outcomes = [
                self._repo.append(
                    run_id=inp.runId, step=inp.step, tag=tag, name=inp.note, lines=inp.lines
                )
                for tag in inp.tags
            ]
            for outcome in outcomes:
                self._audited(inp, outcome.path, outcome.section)
            return AppendNotesOutput(
                paths=[o.path for o in outcomes], appended=sum(o.appended for o in outcomes)
            )

        return await asyncio.to_thread(body)

    def _audited(self, inp: AppendNotesInput, path: str, section: int) -> None:
        if self._audit is None:
            return
        # Keyed by step and note: a retried append (which appends nothing) audits once.
        self._audit.record(
            run_id=inp.runId,
            kind="memory",
            tool=APPEND_MEMORY_NOTES,
            principal=current_principal(),
            detail={"path": path, "step": inp.step, "section": section, "lines": len(inp.lines)},
            event_key=f"memory:{inp.step}:{path}",
        )
