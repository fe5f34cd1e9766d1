"""`research_gather`: one priority group of sub-questions, run concurrently in one activity.

One activity per group (not per sub-question) keeps a run's activity count small. Inside
it, at most `maxConcurrent` sub-questions run at once; each one's start and end times and
the largest number in flight come back in the result (so they are in the run's history).
A sub-question that fails is recorded with its error and the others go on. Finished
sub-questions are checkpointed in heartbeats: a retry after a worker died repeats only
the unfinished ones. A passage that takes longer than its reading budget to read
(`mining/extraction.py`) gives no statements and is named in its sub-question's
`error_message`, which the run's workspace shows.

Search sub-questions read passages and extract statements scored against the *run's*
question (the same relevance floor as discovery always had), so their evidence feeds
enrichment unchanged. `dkg_sparql` and `memory_search` sub-questions give findings only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from temporalio import activity

from activities import metrics
from activities.common import Auditor, stops_when_cancelled
from activities.statements import StatementActivities
from contracts.activity_names import (
    DKG_FIND_RELATED_ASSETS,
    DKG_SPARQL,
    EXTRACT_STATEMENTS,
    RESEARCH_GATHER,
    WEB_SEARCH,
)
from contracts.research import (
    SEARCH_NODES,
    GatherArgs,
    GatherResult,
    ResearchQuestion,
    ResearchTaskStatus,
    SubtaskOutcome,
)
from contracts.tools import ExtractArgs, SourceDocument, Statement, search_hit_documents
from mining.research_findings import (
    NEIGHBOURHOOD_ROWS,
    memory_outcome,
    neighbourhood_outcome,
    neighbourhood_query,
    passage_key,
    search_outcome,
)

T = TypeVar("T")
HEARTBEAT_SECONDS = 2.0
SKIPPED_NAMED = 5  # passages over their reading budget named in the report, at most


def over_budget(skipped: list[str]) -> str:
    """What a sub-question reports of the passages it did not read (source#passage)."""
    named = ", ".join(skipped[:SKIPPED_NAMED])
    more = f" and {len(skipped) - SKIPPED_NAMED} more" if len(skipped) > SKIPPED_NAMED else ""
    return f"{len(skipped)} passage(s) not read, over their reading budget: {named}{more}"


def measured(tool: str, fn: Callable[..., T], *args: Any) -> T:
    """Call a tool's body, counted in the tool metrics under the tool's name (the audit
    trail records the whole group once, as `research_gather`)."""
    started = time.perf_counter()
    ok = False
    try:
        value = fn(*args)
        ok = True
        return value
    finally:
        metrics.tool_call(tool, int((time.perf_counter() - started) * 1000), ok)


class ResearchGatherActivities:
    def __init__(
        self,
        web: Any,
        documents: Any,
        dkg: Any,
        statements: StatementActivities,
        auditor: Auditor,
    ) -> None:
        self._web = web
        self._documents = documents
        self._dkg = dkg
        self._statements = statements
        self._audit = auditor

    # -- one sub-question ---------------------------------------------------------------

    def _search(self, q: ResearchQuestion, args: GatherArgs) -> SubtaskOutcome:
        backend = self._documents if q.node_type == "document_search" else self._web
        if backend is None:
            raise LookupError(f"no backend for {q.node_type} on this worker")
        limit = int(q.node_config.get("maxResults", 5))
        hits = measured(WEB_SEARCH, backend.search, q.question, limit)
        seen = set(args.seenPassages)
        fresh = [h for h in hits if passage_key(h) not in seen]
        docs = [SourceDocument(**d) for d in search_hit_documents(fresh)]
        kept: list[Statement] = []
        skipped: list[str] = []
        if docs:
            extract = ExtractArgs(documents=docs, query=args.query)
            kept, _, _, skipped = measured(EXTRACT_STATEMENTS, self._statements.extract, extract)
        outcome = search_outcome(q, fresh, kept, args.synthesisMaxLength)
        if skipped:
            # Still a completed sub-question, but the run's workspace shows what it left
            # unread (the sub-question's error_message), as the worker's log does.
            outcome.error_message = over_budget(skipped)
            if activity.in_activity():
                activity.logger.warning("research sub-question %s: %s", q.id, outcome.error_message)
        return outcome

    def _dkg_neighbourhood(self, q: ResearchQuestion) -> SubtaskOutcome:
        uals = [str(u) for u in q.node_config.get("uals", [])]
        if not uals:
            # A model's plan names entities, not UALs: the label index finds them.
            text = " ".join(q.keywords) or q.question
            uals = [r.ual for r in measured(DKG_FIND_RELATED_ASSETS, self._find, text)]
        result = measured(
            DKG_SPARQL,
            partial(self._dkg.query, row_limit=NEIGHBOURHOOD_ROWS),
            neighbourhood_query(uals),
        )
        return neighbourhood_outcome(q, result.rows)

    def _find(self, text: str) -> list[Any]:
        return list(self._dkg.find_related(text, limit=5))

    def run_one(self, q: ResearchQuestion, args: GatherArgs) -> SubtaskOutcome:
        if q.node_type in SEARCH_NODES:
            return self._search(q, args)
        if q.node_type == "dkg_sparql":
            return self._dkg_neighbourhood(q)
        return memory_outcome(q, args.memory)

    # -- the group ---------------------------------------------------------------------

    async def gather(self, args: GatherArgs, done: dict[int, SubtaskOutcome]) -> GatherResult:
        limit = asyncio.Semaphore(args.maxConcurrent)
        in_flight = 0
        most = 0

        async def one(q: ResearchQuestion) -> None:
            nonlocal in_flight, most
            async with limit:
                in_flight += 1
                most = max(most, in_flight)
                started = time.time()
                try:
                    outcome = await asyncio.to_thread(self.run_one, q, args)
                except Exception as exc:  # noqa: BLE001  (a failed sub-question is recorded)
                    outcome = SubtaskOutcome(
                        id=q.id,
                        status=ResearchTaskStatus.FAILED,
                        error_message=f"{type(exc).__name__}: {exc}",
                    )
                finally:
                    in_flight -= 1
                outcome.started, outcome.ended = started, time.time()
                done[q.id] = outcome
                if activity.in_activity():
                    activity.heartbeat([o.model_dump(mode="json") for o in done.values()])

        todo = [q for q in args.questions if q.id not in done]
        await asyncio.gather(*(one(q) for q in todo))
        return GatherResult(outcomes=[done[q.id] for q in args.questions], maxInFlight=most)

    @activity.defn(name=RESEARCH_GATHER)
    async def research_gather(self, args: GatherArgs) -> GatherResult:
        done: dict[int, SubtaskOutcome] = {}
        details = activity.info().heartbeat_details
        if details:
            # A retry: what finished before the worker died is not searched again.
            for row in details[0] or []:
                outcome = SubtaskOutcome.model_validate(row)
                done[outcome.id] = outcome

        async def beat() -> None:
            while True:
                activity.heartbeat([o.model_dump(mode="json") for o in done.values()])
                await asyncio.sleep(HEARTBEAT_SECONDS)

        beating = asyncio.ensure_future(beat())
        started = time.perf_counter()
        try:
            async with stops_when_cancelled():
                result = await self.gather(args, done)
        finally:
            beating.cancel()
        elapsed = int((time.perf_counter() - started) * 1000)
        count = sum(len(o.statements) for o in result.outcomes)
        ok = all(o.status == ResearchTaskStatus.COMPLETED for o in result.outcomes)
        self._audit.record(
            RESEARCH_GATHER, {"questions": [q.question for q in args.questions]}, count,
            elapsed, ok,
        )  # fmt: skip
        return result
