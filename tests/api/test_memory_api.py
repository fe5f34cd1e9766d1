"""Memory notes over HTTP: anyone signed in reads, admins edit, a stale edit is refused."""

from __future__ import annotations

from typing import Any

import httpx
from sqlmodel import Session, select

from kminer.stack import Stack
from storage.sql.tables import AuditEvent

NOTE = "/api/memory/battery_metals/validation-rules"


async def test_admins_edit_a_note_against_the_version_they_read(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        missing = await http.get(NOTE, headers=bearer("miner"))
        created = await http.put(
            NOTE, json={"content": "- prefer filings", "version": 0}, headers=bearer("admin", "ada")
        )
        read = await http.get(NOTE, headers=bearer("miner"))
        stale = await http.put(
            NOTE, json={"content": "- overwrite", "version": 0}, headers=bearer("admin", "eve")
        )
        edited = await http.put(
            NOTE,
            json={"content": "- prefer filings\n- distrust blogs", "version": 1},
            headers=bearer("admin", "ada"),
        )
        as_reviewer = await http.put(
            NOTE, json={"content": "x", "version": 2}, headers=bearer("reviewer")
        )
        final = await http.get(NOTE, headers=bearer("reviewer"))
    assert missing.status_code == 404
    assert created.status_code == 200 and created.json()["version"] == 1
    assert read.json()["content"] == "- prefer filings"
    assert read.json()["path"] == "/memories/knowledge/battery_metals/validation-rules.md"
    assert stale.status_code == 409 and "version 0 -> 1" in stale.json()["detail"]
    assert edited.json()["version"] == 2
    assert as_reviewer.status_code == 403
    assert final.json()["content"] == "- prefer filings\n- distrust blogs", "nothing was lost"

    with Session(stack.services.engine) as session:
        edits = session.exec(select(AuditEvent).where(AuditEvent.tool == "memory_edit")).all()
    assert [(e.principal, e.kind) for e in edits] == [("ada", "memory"), ("ada", "memory")]


async def test_unknown_notes_and_bad_tags_are_422(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        bad_note = await http.get("/api/memory/supply_chain/passwords", headers=bearer())
        bad_tag = await http.get("/api/memory/Supply-Chain/schema-notes", headers=bearer())
        too_big = await http.put(
            "/api/memory/supply_chain/schema-notes",
            json={"content": "x" * 200_001, "version": 0},
            headers=bearer(),
        )
        negative = await http.put(
            "/api/memory/supply_chain/schema-notes",
            json={"content": "x", "version": -1},
            headers=bearer(),
        )
    assert bad_note.status_code == 422
    assert bad_tag.status_code == 422
    assert too_big.status_code == 422
    assert negative.status_code == 422
