"""A run's bounded view of a note comes from its head and its latest section rows only,
through the note's index, and reads exactly as the view of the whole note."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, insert, text
from sqlalchemy.engine import Engine

from contracts.run import memory_path
from storage.sql.memory_repo import MemoryRepository, section_text
from storage.sql.note_view import note_view
from storage.sql.tables import MemorySection, utcnow
from tests.support.postgres import engine_per_backend

engine = engine_per_backend()


def _fill(repo: MemoryRepository, tag: str, sizes: list[int], head: str | None = None) -> None:
    if head is not None:
        repo.put(tag=tag, name="discovery-notes", content=head, run_id=None, expected_version=0)
    for n, size in enumerate(sizes):
        repo.append(run_id=f"run-{n:04d}", step="discovery", tag=tag, name="discovery-notes",
                    lines=[f"finding {n}: " + "w" * size])  # fmt: skip


SHAPES: dict[str, tuple[list[int], str | None]] = {
    "empty": ([], None),
    "head only": ([], "# Discovery Notes\n" + "rule\n" * 400),
    "one section": ([100], None),
    "fifteen runs": ([520] * 15, None),
    "sixteen runs": ([520] * 16, None),
    "seventeen runs": ([520] * 17, None),
    "many short runs": ([5] * 300, None),
    "a long latest run": ([300] * 30 + [9000], None),
    "a long head": ([400] * 40, "# Discovery Notes\n" + "accept_threshold: 0.8\n" * 300),
    "a head without a line end": ([200] * 60, "Prefer filings."),
}


def test_a_run_reads_what_the_view_of_the_whole_note_shows(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    for n, (sizes, head) in enumerate(SHAPES.values()):
        _fill(repo, f"shape{n}", sizes, head)
    for n, shape in enumerate(SHAPES):
        tag, path = f"shape{n}", memory_path(f"shape{n}", "discovery-notes")
        whole = repo.read_tags([tag])[path]
        for limit in (1000, 2500, 8000):
            assert repo.read_tags([tag], limit)[path] == note_view(whole, limit), (shape, limit)


def _statements(engine: Engine) -> tuple[list[tuple[str, Any]], Any]:
    seen: list[tuple[str, Any]] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "memorysection" in statement:
            seen.append((statement, parameters))

    return seen, record


def test_the_view_of_a_long_note_reads_its_latest_sections_through_the_index(
    engine: Engine,
) -> None:
    repo = MemoryRepository(engine)
    # The note read, then ten times as many sections of other notes written after it.
    rows = [("long", n) for n in range(400)] + [(f"other{n % 10}", n) for n in range(4000)]
    with engine.begin() as conn:
        conn.execute(insert(MemorySection), [
            {"domain_tag": tag, "name": "discovery-notes", "run_id": f"run-{n}", "step": "s",
             "content": section_text(f"run-{n}", "s", ["w" * 500]), "created_at": utcnow()}
            for tag, n in rows
        ])  # fmt: skip
        conn.execute(text("ANALYZE"))
    seen, record = _statements(engine)
    event.listen(engine, "before_cursor_execute", record)
    try:
        view = repo.read_tags(["long"], 8000)[memory_path("long", "discovery-notes")]
    finally:
        event.remove(engine, "before_cursor_execute", record)
    whole = repo.read("long", "discovery-notes")
    assert whole is not None and view == note_view(whole.content, 8000)
    assert "earlier run sections of this note left out here" in view
    assert seen, "the view read the note's sections"
    explain = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
    with engine.connect() as conn:
        for statement, parameters in seen:
            plan = " ".join(
                " ".join(str(col) for col in row)
                for row in conn.exec_driver_sql(explain + statement, parameters)
            )
            assert "ix_memorysection_note" in plan, plan
            assert "Seq Scan" not in plan and "SCAN memorysection " not in plan + " ", plan
