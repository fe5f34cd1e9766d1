"""dkg_publish_asset: one asset per approved candidate, whatever retries happen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select
from temporalio import activity
from temporalio.exceptions import ApplicationError
from temporalio.worker import Worker

from activities.dkg import DkgActivities
from contracts.run import Decision, MiningRequest, Phase
from contracts.tools import PublishArgs
from contracts.tools import PublishResult as Published
from kminer.worker import activities_for, connect, open_services
from mining.jsonld import content_hash
from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.interface import DkgError, DkgValidationError, PublishResult
from storage.sql.db import make_engine
from storage.sql.tables import PublishRecord
from temporal_client.runs import start_run
from tests.support.postgres import fresh_postgres_database, postgres_answers
from tests.support.runs import wait_for_review
from workflows.mining import MiningWorkflow

ASSET = {"@context": "https://schema.org/", "@type": "Claim", "name": "A supplies B"}


class MintingNode:
    """A DKG edge that mints a new asset on every call, like a real chain would."""

    def __init__(self) -> None:
        self.minted: dict[str, str] = {}
        self.calls = 0
        self.fail_with: Exception | None = None

    def publish(self, asset: dict[str, Any], **_: Any) -> PublishResult:
        self.calls += 1
        if self.fail_with is not None:
            raise self.fail_with
        ual = f"did:dkg:test/0x1/{self.calls}"
        self.minted[content_hash(asset)] = ual
        return PublishResult(ual=ual, created=True)

    def find_by_content_hash(self, digest: str) -> str | None:
        return self.minted.get(digest)


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """The publish ledger on SQLite, and on a fresh Postgres database when one answers."""
    if request.param == "sqlite":
        yield make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
        return
    if not postgres_answers():
        pytest.skip("Postgres is not answering on 127.0.0.1:5432 (or psycopg missing)")
    with fresh_postgres_database("km_ledger") as url:
        eng = make_engine(url)
        yield eng
        eng.dispose()


def publisher(node: Any, engine: Any) -> DkgActivities:
    return DkgActivities(node, engine, (DkgError,), (DkgValidationError,))


def args(candidate: str = "cand-1") -> PublishArgs:
    return PublishArgs(runId="run-1", candidateId=candidate, asset=ASSET)


def test_a_retry_after_success_returns_the_first_ual_without_minting(engine: Any) -> None:
    node = MintingNode()
    first = publisher(node, engine)._publish(args())
    again = publisher(node, engine)._publish(args())
    assert node.calls == 1
    assert again.ual == first.ual and again.created is False


def test_a_crash_between_mint_and_record_is_resolved_by_content_hash(engine: Any) -> None:
    node = MintingNode()
    node.publish(ASSET)  # the attempt that minted, then died before recording
    with Session(engine) as session:
        session.add(
            PublishRecord(
                run_id="run-1", candidate_id="cand-1", ual="", content_hash=content_hash(ASSET)
            )
        )
        session.commit()
    result = publisher(node, engine)._publish(args())
    assert node.calls == 1, "no second mint"
    assert result.ual == "did:dkg:test/0x1/1"
    with Session(engine) as session:
        assert session.exec(select(PublishRecord)).one().ual == result.ual


def test_a_refused_asset_is_final_but_a_transient_error_is_retried(engine: Any) -> None:
    node = MintingNode()
    node.fail_with = DkgValidationError("asset has no @type")
    with pytest.raises(ApplicationError) as refused:
        publisher(node, engine)._publish(args("cand-2"))
    assert refused.value.non_retryable
    node.fail_with = DkgError("cannot reach the DKG node")
    with pytest.raises(DkgError):
        publisher(node, engine)._publish(args("cand-3"))  # Temporal retries this one
    node.fail_with = None
    assert publisher(node, engine)._publish(args("cand-3")).created


def test_the_embedded_store_keeps_one_asset_per_content(engine: Any, tmp_path: Path) -> None:
    store = EmbeddedDkg(tmp_path / "dkg")
    try:
        before = store.count_assets()
        first = publisher(store, engine)._publish(args("cand-a"))
        second = publisher(store, engine)._publish(args("cand-b"))  # same content
        assert first.ual == second.ual and store.count_assets() == before + 1
        assert store.find_by_content_hash(content_hash(ASSET)) == first.ual
    finally:
        store.close()


async def test_a_refused_candidate_does_not_stop_the_others(settings: Any) -> None:
    refused: list[str] = []

    @activity.defn(name="dkg_publish_asset")
    async def node_that_refuses_one(args: PublishArgs) -> Published:
        if not refused or refused[0] == args.candidateId:
            refused[:1] = [args.candidateId]
            raise ApplicationError("node says: asset too large", non_retryable=True)
        return Published(
            candidateId=args.candidateId, ual=f"did:dkg:x/{args.candidateId}", created=True
        )

    services = open_services(settings)
    try:
        client = await connect(settings, settings.temporal_address or "", services.engine)
        acts = [
            a
            for a in activities_for(settings, services)
            if getattr(a, "__name__", "") != "dkg_publish_asset"
        ]
        async with Worker(
            client,
            task_queue=settings.task_queue,
            workflows=[MiningWorkflow],
            activities=[*acts, node_that_refuses_one],
        ):
            request = MiningRequest(
                query="Which suppliers of lithium carry geopolitical risk?",
                domainTags=["supply_chain"],
            )
            handle = await start_run(client, settings.task_queue, request)
            ws = await wait_for_review(handle)
            # A reviewer approves every candidate, so several publish and one is refused.
            await handle.execute_update(
                MiningWorkflow.decide,
                [Decision(candidateId=c, action="approve") for c in ws.pendingApprovals],
            )
            result = await handle.result()
    finally:
        services.close()
    assert result.phase == Phase.COMPLETED
    published = {p.candidateId for p in result.publishedAssets}
    assert refused and refused[0] not in published and len(published) >= 1
    note = next(a for a in result.candidateAssets if a["candidateId"] == refused[0])
    assert note["reviewStatus"] == "approved" and note["publishedUal"] is None
