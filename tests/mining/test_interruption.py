"""Reading stops between steps once its scope is asked to stop, and only then: a worker
that shuts down ends its reading threads within a step, and nothing half-read is kept."""

from __future__ import annotations

import asyncio
import threading

import pytest

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.interruption import Interrupted, check, interruptible
from mining.nlp import Resolver
from mining.statement_reads import StatementReader, shared_reads

TEXT = "Albemarle supplies lithium hydroxide to Tesla from its Kemerton plant."


def test_outside_any_scope_nothing_stops() -> None:
    check()


def test_a_scope_stops_its_work_only_once_it_is_asked_to() -> None:
    stop = threading.Event()
    with interruptible(stop):
        check()
        stop.set()
        with pytest.raises(Interrupted):
            check()
    check()  # the scope ended with the block


async def test_the_scope_reaches_the_threads_the_work_runs_in() -> None:
    stop = threading.Event()
    stop.set()
    with interruptible(stop):
        with pytest.raises(Interrupted):
            await asyncio.to_thread(check)
    await asyncio.to_thread(check)


def test_a_text_read_in_a_stopped_scope_gives_no_statements_and_raises(gazetteer) -> None:  # type: ignore[no-untyped-def]
    doc = SourceDocument(text=TEXT, source="https://example.org/interrupted")
    stop = threading.Event()
    stop.set()
    with interruptible(stop), pytest.raises(Interrupted):
        read_statements(doc, gazetteer, Resolver(gazetteer))


def test_an_interrupted_read_is_not_remembered_as_read(gazetteer) -> None:  # type: ignore[no-untyped-def]
    shared_reads().clear()
    doc = SourceDocument(text=TEXT, source="https://example.org/interrupted-memo")
    stop = threading.Event()
    stop.set()
    with interruptible(stop), pytest.raises(Interrupted):
        StatementReader(gazetteer, Resolver(gazetteer)).read(doc)
    reader = StatementReader(gazetteer, Resolver(gazetteer))
    assert reader.read(doc), "read in full on the next attempt"
    assert reader.skipped == []
