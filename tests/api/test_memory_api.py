"""Memory notes over HTTP: anyone signed in reads them whole, admins edit their heads, a
stale edit is refused."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from sqlmodel import Session, select

from kminer.stack import Stack
from storage.sql.memory_repo import MemoryRepository
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


async def test_a_note_runs_wrote_reads_whole_and_an_edit_changes_only_its_head(
    stack: Stack, bearer: Any
) -> None:
    repo = MemoryRepository(stack.services.engine)
    tag = f"sections_{uuid.uuid4().hex[:8]}"
    note = f"/api/memory/{tag}/discovery-notes"
    for run in ("mine-1", "mine-2"):
        repo.append(run_id=run, step="discovery", tag=tag, name="discovery-notes",
                    lines=[f"found by {run}"])  # fmt: skip
    whole = (
        f"# Discovery Notes - {tag}\n"
        "\n## Run mine-1 (discovery)\n- found by mine-1\n"
        "\n## Run mine-2 (discovery)\n- found by mine-2\n"
    )
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        read = (await http.get(note, headers=bearer("miner"))).json()
        listed = (await http.get(f"/api/memory?tag={tag}", headers=bearer("miner"))).json()
        # A run appends after the admin read the note: the edit holds and keeps it.
        repo.append(run_id="mine-3", step="discovery", tag=tag, name="discovery-notes",
                    lines=["found by mine-3"])  # fmt: skip
        edited = await http.put(
            note,
            json={"content": read["content"].replace("\n", "\nPrefer filings.\n", 1),
                  "version": read["version"]},
            headers=bearer("admin", "ada"),
        )  # fmt: skip
        rewritten = await http.put(
            note,
            json={"content": read["content"].replace("mine-1\n", "nobody\n"), "version": 1},
            headers=bearer("admin", "ada"),
        )
        stale = await http.put(
            note, json={"content": "# Mine", "version": read["version"]},
            headers=bearer("admin", "eve"),
        )  # fmt: skip
    assert read["content"] == whole, "the note reads as the runs wrote it"
    assert (read["head"], read["version"], read["sections"]) == (
        f"# Discovery Notes - {tag}\n", 0, 2,
    )  # fmt: skip
    assert read["updatedByRun"] == "mine-2"
    assert [(n["name"], n["content"], n["sections"]) for n in listed] == [
        ("discovery-notes", whole, 2)
    ]
    assert edited.status_code == 200, edited.text
    assert edited.json()["version"] == 1 and edited.json()["sections"] == 3
    assert edited.json()["content"] == (
        f"# Discovery Notes - {tag}\nPrefer filings.\n"
        + whole.split("\n", 1)[1]
        + "\n## Run mine-3 (discovery)\n- found by mine-3\n"
    )
    assert rewritten.status_code == 422
    assert "run sections stay as runs wrote them" in rewritten.json()["detail"]
    assert stale.status_code == 409 and "version 0 -> 1" in stale.json()["detail"]
