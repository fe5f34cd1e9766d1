"""Who did what in a run: tool calls, decisions, publications and memory writes, audited."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlmodel import Session

from kminer.stack import Stack
from storage.sql.audit_log import AuditLog
from storage.sql.db import make_engine
from storage.sql.tables import AuditEvent
from tests.support.postgres import fresh_postgres_database, postgres_answers

QUESTION = {
    "query": "Which suppliers of lithium carry geopolitical risk?",
    "domainTags": ["supply_chain"],
}


async def _reviewed_run(stack: Stack, bearer: Any) -> tuple[str, str, list[str]]:
    """A run started by miner ana; reviewer rita approves one candidate, rejects the rest."""
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        started = await http.post("/api/runs", json=QUESTION, headers=bearer("miner", "ana"))
        run_id = started.json()["runId"]
        for _ in range(300):
            ws = (await http.get(f"/api/runs/{run_id}", headers=bearer("miner", "ana"))).json()
            if ws["phase"] == "REVIEW":
                break
            await asyncio.sleep(0.2)
        pending = ws["pendingApprovals"]
        approved = next(c["id"] for c in ws["candidates"] if c["id"] in pending and c["accepted"])
        decisions = [
            {"candidateId": cid, "action": "approve" if cid == approved else "reject"}
            for cid in pending
        ]
        decided = await http.post(
            f"/api/runs/{run_id}/decisions", json=decisions, headers=bearer("reviewer", "rita")
        )
        assert decided.status_code == 200, decided.text
        for _ in range(150):
            done = await http.get(f"/api/runs/{run_id}/result", headers=bearer("miner", "ana"))
            if done.status_code == 200:
                break
            await asyncio.sleep(0.2)
        return run_id, approved, pending


async def test_a_runs_trail_names_who_acted(stack: Stack, bearer: Any) -> None:
    run_id, approved, pending = await _reviewed_run(stack, bearer)
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        trail = await http.get(
            f"/api/runs/{run_id}/audit", params={"limit": 1000}, headers=bearer("miner", "ana")
        )
    assert trail.status_code == 200, trail.text
    events = trail.json()["events"]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        by_kind.setdefault(event["kind"], []).append(event)

    assert by_kind["tool"], "tool calls are audited"
    assert {e["principal"] for e in by_kind["tool"]} == {"ana"}, "tools act for the run's owner"

    decisions = by_kind["decision"]
    assert sorted(e["detail"]["candidateId"] for e in decisions) == sorted(pending)
    assert {e["principal"] for e in decisions} == {"rita"}, "a decision names its reviewer"
    assert {e["detail"]["action"] for e in decisions if e["detail"]["candidateId"] == approved} == {
        "approve"
    }

    [publication] = [e for e in by_kind["publication"] if e["detail"]["candidateId"] == approved]
    assert publication["detail"]["ual"].startswith("did:dkg:")
    assert publication["principal"] == "ana"

    memory = by_kind["memory"]
    assert {e["detail"]["step"] for e in memory} >= {"discovery", "validation"}
    assert all(e["detail"]["path"].startswith("/memories/") for e in memory)

    ids = [e["id"] for e in events]
    assert ids == sorted(ids), "oldest first"


async def test_the_trail_is_filtered_paged_and_private(stack: Stack, bearer: Any) -> None:
    run_id, _, pending = await _reviewed_run(stack, bearer)
    url = f"/api/runs/{run_id}/audit"
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        only = await http.get(url, params={"kind": "decision"}, headers=bearer("reviewer"))
        first = await http.get(url, params={"limit": 2}, headers=bearer("reviewer"))
        after = first.json()["nextAfter"]
        second = await http.get(url, params={"limit": 2, "after": after}, headers=bearer())
        stranger = await http.get(url, headers=bearer("miner", "bob"))
        unknown = await http.get("/api/runs/mine-nope/audit", headers=bearer("admin"))
        bad_kind = await http.get(url, params={"kind": "gossip"}, headers=bearer())
        anonymous = await http.get(url)
    assert {e["kind"] for e in only.json()["events"]} == {"decision"}
    assert len(only.json()["events"]) == len(pending)
    page_one = [e["id"] for e in first.json()["events"]]
    page_two = [e["id"] for e in second.json()["events"]]
    assert len(page_one) == len(page_two) == 2 and page_one[-1] == after < page_two[0]
    assert stranger.status_code == 404, "a miner sees only the trails of its own runs"
    assert unknown.status_code == 404
    assert bad_kind.status_code == 422
    assert anonymous.status_code == 401


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_event_with_a_key_is_written_once(backend: str, tmp_path: Any) -> None:
    if backend == "sqlite":
        log = AuditLog(make_engine(f"sqlite:///{tmp_path / 'audit.db'}"))
    elif not postgres_answers():
        pytest.skip("Postgres is not answering on 127.0.0.1:5432 (or psycopg missing)")
    else:
        with fresh_postgres_database("km_audit") as url:
            engine = make_engine(url)
            try:
                _written_once(AuditLog(engine))
            finally:
                engine.dispose()
        return
    _written_once(log)


def _written_once(log: AuditLog) -> None:

    def publish(run_id: str) -> bool:
        return log.record(
            run_id=run_id,
            kind="publication",
            tool="dkg_publish_asset",
            principal="ana",
            detail={"ual": "u"},
            event_key="publish:c1",
        )

    assert (publish("r"), publish("r"), publish("s")) == (True, False, True)
    assert [e.event_key for e in log.for_run("r")] == ["publish:c1"]

    def decisions(*offsets: int) -> list[Any]:
        return [
            log.event(run_id="d", kind="decision", tool="decide", principal="rita",
                      detail={"offset": i}, event_key=f"decision:{i}")
            for i in offsets
        ]  # fmt: skip

    # A batch is written at once; a retried batch writes only what it did not write before.
    assert log.record_many(decisions(0, 1)) == 2
    assert log.record_many(decisions(0, 1, 2)) == 1
    assert log.record_many([]) == 0
    trail = log.for_run("d")
    assert [e.event_key for e in trail] == ["decision:0", "decision:1", "decision:2"]
    assert {e.principal for e in trail} == {"rita"} and trail[2].detail == '{"offset": 2}'


def test_an_older_database_gains_the_new_columns_and_keeps_its_rows(tmp_path: Any) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE auditevent (id INTEGER PRIMARY KEY, run_id VARCHAR, principal VARCHAR,"
            " tool VARCHAR NOT NULL, args_hash VARCHAR NOT NULL, result_count INTEGER NOT NULL,"
            " elapsed_ms INTEGER NOT NULL, success BOOLEAN NOT NULL, created_at DATETIME NOT NULL)"
        )
        db.execute(
            "INSERT INTO auditevent VALUES (1, 'r', NULL, 'dkg_sparql', 'h', 3, 12, 1,"
            " '2026-01-01 00:00:00')"
        )
    engine = make_engine(f"sqlite:///{path}")
    with Session(engine) as session:
        old = session.get(AuditEvent, 1)
    assert old is not None and old.tool == "dkg_sparql" and old.kind == "tool"
    log = AuditLog(engine)
    assert log.record(run_id="r", kind="decision", tool="decide", principal="rita",
                      detail={}, event_key="decision:0")  # fmt: skip
    assert not log.record(run_id="r", kind="decision", tool="decide", principal="rita",
                          detail={}, event_key="decision:0")  # fmt: skip
