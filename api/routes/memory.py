"""Long-term memory notes per domain tag: read by anyone signed in, edited by admins.

An edit names the version it was based on; if the note moved on meanwhile (a
run appended, another admin edited) it is refused with 409 instead of
silently overwriting what was written since.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path
from pydantic import BaseModel, Field

from api.auth import Admin, Miner
from api.deps import Services
from contracts.run import NOTE_NAMES, memory_path
from storage.sql.audit_log import AuditLog
from storage.sql.memory_repo import MemoryRepository, StaleNoteError

router = APIRouter(prefix="/api/memory", tags=["memory"])
MAX_NOTE_CHARS = 200_000

NoteName = Literal[NOTE_NAMES]  # type: ignore[valid-type]  (the three note names)
Tag = Annotated[str, Path(pattern=r"^[a-z0-9_]{1,64}$", description="a domain tag")]


class MemoryNoteOut(BaseModel):
    tag: str
    note: str
    path: str
    content: str
    version: int
    updatedAt: datetime | None = None
    updatedByRun: str | None = None


class MemoryNoteEdit(BaseModel):
    content: str = Field(max_length=MAX_NOTE_CHARS)
    # Strict: `false` or `1.0` is not a version (lax pydantic would read them as 0 and 1).
    version: int = Field(
        ge=0, strict=True, description="the version this edit is based on (0: a new note)"
    )


@router.get("")
def memory(services: Services, who: Miner, tag: str | None = None) -> list[dict]:
    notes = MemoryRepository(services.engine).list_notes(tag)
    return [n.model_dump(mode="json") for n in notes]


@router.get("/{tag}/{note}")
async def read_note(tag: Tag, note: NoteName, services: Services, who: Miner) -> MemoryNoteOut:
    name = note
    row = await asyncio.to_thread(MemoryRepository(services.engine).read, tag, name)
    if row is None:
        raise HTTPException(404, f"{memory_path(tag, name)} has not been written yet")
    return MemoryNoteOut(
        tag=tag,
        note=name,
        path=memory_path(tag, name),
        content=row.content,
        version=row.version,
        updatedAt=row.updated_at,
        updatedByRun=row.updated_by_run,
    )


@router.put("/{tag}/{note}")
async def edit_note(
    tag: Tag, note: NoteName, edit: MemoryNoteEdit, services: Services, who: Admin
) -> MemoryNoteOut:
    name = note
    repo = MemoryRepository(services.engine)
    try:
        version = await asyncio.to_thread(
            lambda: repo.put(
                tag=tag,
                name=name,
                content=edit.content,
                run_id=None,
                expected_version=edit.version,
            )
        )
    except StaleNoteError as exc:
        raise HTTPException(409, str(exc)) from exc
    await asyncio.to_thread(
        AuditLog(services.engine).record,
        run_id=None,
        kind="memory",
        tool="memory_edit",
        principal=who.sub,
        detail={"path": memory_path(tag, name), "version": version, "chars": len(edit.content)},
        event_key=f"memory-edit:{memory_path(tag, name)}:{version}",
    )
    return await read_note(tag, note, services, who)
