"""`kminer demo`: one supply-chain run on the demo data, reviewed and published."""

from __future__ import annotations

import asyncio
import shutil
import sys
import time

import httpx
from temporalio.service import RPCError

from contracts.run import Decision, MiningRequest, auto_review_reason, validation_verdict
from kminer.config import Settings, load_settings
from kminer.stack import StackError, embedded_stack, read_stack_file
from storage.dkg.embedded import EmbeddedDkg
from storage.sql.memory_repo import MemoryRepository
from temporal_client.runs import follow, start_run
from workflows.mining import MiningWorkflow

DEMO_QUESTION = "Which suppliers of lithium carry geopolitical risk?"
DEMO_TAGS = ["supply_chain", "general_risk"]


def say(text: str = "") -> None:
    print(text, flush=True)


def fresh_demo_settings(settings: Settings) -> Settings:
    """The demo always starts from the shipped data, in its own folder of the data dir.

    A second demo in a used store would find its own earlier claims as duplicates
    and publish nothing, so the demo folder (and only it) is reset first.
    """
    demo = load_settings(settings.data_dir / "demo")
    running = read_stack_file(demo)
    if running:
        raise StackError(
            f"another demo (pid {running['pid']}) is running in {demo.data_dir}; wait for it"
        )
    if demo.data_dir.exists():
        shutil.rmtree(demo.data_dir)
    return demo


async def run_demo(settings: Settings) -> int:
    started = time.monotonic()
    settings = fresh_demo_settings(settings)
    say(f"Knowledge Miner demo — data dir {settings.data_dir} (reset for each demo)")
    async with embedded_stack(settings) as stack:
        dkg = stack.services.dkg
        where = f"{dkg.count_assets()} assets" if isinstance(dkg, EmbeddedDkg) else "remote"
        say(
            f"stack up: Temporal {stack.temporal_address}, API {stack.api_url}, "
            f"DKG {where}, model '{settings.model_name}'"
        )
        memory = MemoryRepository(stack.services.engine)
        before = {(n.domain_tag, n.name): n.sections for n in memory.list_notes()}
        request = MiningRequest(query=DEMO_QUESTION, domainTags=DEMO_TAGS, review="required")
        handle = await start_run(stack.client, settings.task_queue, request)
        say(f"\nrun {handle.id}  thread {request.threadId}\nquestion: {DEMO_QUESTION}")

        # Review happens while `follow` watches: wait for REVIEW, then decide.
        async def review() -> None:
            while True:
                try:
                    ws = await handle.query(MiningWorkflow.workspace)
                except RPCError:  # the run's first task may not have run yet
                    await asyncio.sleep(0.3)
                    continue
                if ws.phase.value == "REVIEW" and ws.pendingApprovals:
                    break
                if ws.phase.value in ("COMPLETED", "FAILED", "CANCELED"):
                    return
                await asyncio.sleep(0.3)
            say("\ncandidates:")
            for c in ws.candidates:
                ts = c.asset.get("trustSignals", {})
                verdict = validation_verdict(c).replace("accept", "ACCEPT")
                say(
                    f"  {c.id}  {c.kind:6}  confidence {ts.get('confidence')}  "
                    f"{verdict}  {c.asset.get('name')}"
                )
                evidence = (c.asset.get("provenance") or {}).get("evidence") or []
                sources = sorted({e.get("source") for e in evidence if isinstance(e, dict)})
                say(f"      {ts.get('independentSources', 0)} independent source(s): "
                    + ", ".join(s for s in sources if s))  # fmt: skip
                if not c.accepted:
                    why = [
                        r.split(": ", 1)[-1]
                        for r in c.reasoning
                        if r.startswith(("rejected", "proposed for review"))
                    ]
                    say(f"      why not accepted: {'; '.join(why)}")
            # The demo's reviewer decides as review "auto" does: it approves what validation
            # accepted, and rejects the rest for publishing only, so the answer still
            # reports the claims validation proposed, hedged by their support.
            decisions = [
                Decision(
                    candidateId=c.id,
                    action="approve" if c.accepted else "reject",
                    reason=None if c.accepted else auto_review_reason(c),
                    reviewer="demo",
                )
                for c in ws.candidates
                if c.status == "pending"
            ]
            results = await handle.execute_update(MiningWorkflow.decide, decisions)
            approved = sum(r.status == "approved" for r in results)
            say(
                f"\nreviewer (decide update): {approved} approved, "
                f"{len(results) - approved} rejected"
            )

        reviewer = asyncio.ensure_future(review())
        watcher = asyncio.ensure_future(follow(handle, out=sys.stdout))
        # If the reviewer fails, say so now instead of waiting out the review deadline.
        await asyncio.wait([reviewer, watcher], return_when=asyncio.FIRST_EXCEPTION)
        if reviewer.done() and reviewer.exception() is not None:
            watcher.cancel()
            await handle.cancel()
            raise reviewer.exception()  # type: ignore[misc]
        result = await watcher
        await reviewer

        say(f"\nanswer: {result.answer.text}")
        for sentence in result.answer.sentences:
            say(f"  - {sentence.text}")
            for source in sentence.sources:
                say(f"      source: {source}")
        say(f"\n{result.synthesizedReport.splitlines()[0] if result.synthesizedReport else ''}")
        say(f"\npublished {len(result.publishedAssets)} assets:")
        for item in result.publishedAssets:
            say(f"  {item.candidateId} -> {item.ual}")
        if not result.publishedAssets:
            say("nothing was published")
            return 1
        values = " ".join(f"<{p.ual}>" for p in result.publishedAssets)
        # The asset's own node (a claim or a new entity), not the nodes it links to.
        sparql = (
            f"SELECT ?ual (SAMPLE(?n) AS ?name) WHERE {{ VALUES ?ual {{ {values} }} "
            "GRAPH ?ual { ?s schema:name ?n "
            'FILTER(STRSTARTS(STR(?s), "urn:kminer:claim:") || '
            'STRSTARTS(STR(?s), "urn:kminer:entity:")) } } GROUP BY ?ual'
        )
        # Async client: the API answers from this very event loop.
        from api.auth import TokenIssuer, load_secret

        token = TokenIssuer(load_secret(settings.data_dir)).mint("demo", "miner", 600)
        async with httpx.AsyncClient(
            timeout=30, headers={"Authorization": f"Bearer {token}"}
        ) as http:
            answer = await http.post(f"{stack.api_url}/api/dkg/sparql", json={"query": sparql})
        answer.raise_for_status()
        rows = answer.json()["rows"]
        say(f"\nSPARQL finds {len(rows)} of them in the DKG:")
        for row in rows:
            say(f"  {row['ual']}  {row['name']}")
        say("\nmemory notes that grew:")
        for note in memory.list_notes():
            old = before.get((note.domain_tag, note.name), 0)
            if note.sections > old:
                say(
                    f"  {note.path}  {old} -> {note.sections} run sections "
                    f"({len(note.content)} chars)"
                )
        say(f"\ndone in {time.monotonic() - started:.1f}s")
        found = {row["ual"] for row in rows}
        return 0 if found == {p.ual for p in result.publishedAssets} else 1
