"""Long-term memory notes per domain tag: read by anyone signed in, edited by admins.

A note is read whole: its head (title and what people wrote above the first run section)
and every run section. An edit replaces the head: its `content` is the new head, or the
whole note as read with the head changed (the run sections it repeats are recognised; one
it changes or adds is a 422, as runs' sections stay as they wrote them). It names the
version it was based on; if the head was edited meanwhile it is refused with 409 instead
of silently overwriting that edit. Runs appending sections do not move the version, and
nothing they append is lost by an edit.
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
from storage.sql.memory_repo import MemoryRepository, Note, SectionEditError, StaleNoteError

router = APIRouter(prefix="/api/memory", tags=["memory"])
MAX_NOTE_CHARS = 200_000

NoteName = Literal[NOTE_NAMES]  # type: ignore[valid-type]  (the three note names)
Tag = Annotated[str, Path(pattern=r"^[a-z0-9_]{1,64}$", description="a domain tag")]


class MemoryNoteOut(BaseModel):
    tag: str
    note: str
    path: str
    content: str = Field(description="the whole note: its head, then every run section")
    head: str = Field(description="the text above the first run section (what a PUT edits)")
    version: int = Field(description="the head's version; appended run sections leave it")
    sections: int = Field(description="how many run sections the note has")
    updatedAt: datetime | None = None
    updatedByRun: str | None = None


class MemoryNoteEdit(BaseModel):
    content: str = Field(
        max_length=MAX_NOTE_CHARS,
        description="the new head, or the note as read with its head changed",
    )
    # Strict: `false` or `1.0` is not a version (lax pydantic would read them as 0 and 1).
    version: int = Field(
        ge=0, strict=True, description="the version this edit is based on (0: a new note)"
    )


def _listed(note: Note) -> dict:
    return {
        "domain_tag": note.domain_tag,
        "name": note.name,
        "content": note.content,
        "head": note.head,
        "version": note.version,
        "sections": note.sections,
        "updated_at": note.updated_at.isoformat(),
        "updated_by_run": note.updated_by_run,
    }


@router.get("")
def memory(services: Services, who: Miner, tag: str | None = None) -> list[dict]:
    return [_listed(n) for n in MemoryRepository(services.engine).list_notes(tag)]


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
        head=row.head,
        version=row.version,
        sections=row.sections,
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
    except SectionEditError as exc:
        raise HTTPException(422, str(exc)) from exc
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
