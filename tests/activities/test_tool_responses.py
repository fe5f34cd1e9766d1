"""The standard tool response: capped for history, the full body kept as a blob."""

from __future__ import annotations

import json
from pathlib import Path

from sqlmodel import Session, select

from activities.common import Auditor, run_tool
from contracts.tools import MAX_TOOL_RESULT_CHARS
from storage.sql.db import make_engine
from storage.sql.tables import AuditEvent, Blob


def test_a_large_answer_is_capped_and_the_rest_is_kept_as_a_blob(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    rows = [{"i": i, "text": "x" * 500} for i in range(200)]
    response = run_tool(Auditor(engine), "web_search", {"q": "big"}, lambda: (rows, []))
    assert response.success and response.metadata.truncated
    assert response.metadata.count == 200
    assert len(json.dumps(response.results)) <= MAX_TOOL_RESULT_CHARS
    with Session(engine) as session:
        blob = session.get(Blob, response.metadata.blobRef)
        audit = session.exec(select(AuditEvent)).one()
    assert blob is not None and json.loads(blob.content) == rows
    assert (audit.tool, audit.result_count, audit.success) == ("web_search", 200, True)


def test_an_expected_error_is_a_failed_response_not_an_exception() -> None:
    def body() -> tuple[list, list]:
        raise LookupError("no Knowledge Asset with UAL did:dkg:x")

    response = run_tool(Auditor(None), "dkg_get_asset", {}, body, (LookupError,))
    assert response.success is False
    assert response.error == "no Knowledge Asset with UAL did:dkg:x"
    assert response.results == []
