"""Publishing to a remote DKG node exactly once: the asset carries its content hash, and a
retry after a crash between the mint and the ledger write finds it on the node by SPARQL
instead of minting (and paying) again.

The node is a local HTTP stand-in answering the SDK's direct-query requests from what was
minted; the chain is the edge we cannot reach offline, so the SDK's writer is replaced by a
fake that "mints" by adding the asset to that node.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlmodel import Session, select

from activities.dkg import DkgActivities
from contracts.tools import PublishArgs
from mining.jsonld import content_hash
from storage.dkg.interface import DkgError, DkgValidationError
from storage.dkg.remote import RemoteDkg
from storage.dkg.remote_publish import CONTENT_HASH_IRI
from storage.sql.db import make_engine
from storage.sql.tables import PublishRecord
from tests.support.replay import replay_server

ASSET = {"@context": "https://schema.org/", "@type": "Claim", "name": "A supplies B"}
CHAIN = "did:dkg:otp:20430/0x5cac41237127f94c2d21dae0b14bfefa99880630"


class Node:
    """Answers content-hash lookups from what the fake chain minted."""

    def __init__(self) -> None:
        self.minted: dict[str, str] = {}  # content hash -> UAL
        self.published: list[dict[str, Any]] = []
        self.lookups = 0

    def answer(self, method: str, path: str, body: Any, _headers: dict[str, str]) -> Any:
        if method != "POST" or not path.startswith("/v1/direct-query"):
            return 404, {"code": 404, "message": f"no route {method} {path}"}
        text = json.dumps(body)
        self.lookups += 1
        hits = [self.minted[h] for h in re.findall(r"[0-9a-f]{64}", text) if h in self.minted]
        return 200, {"data": [{"g": hits[0] + "/public"}] if hits else []}

    def mint(self, content: dict[str, Any], _options: dict[str, Any]) -> dict[str, Any]:
        asset = content["public"]
        self.published.append(asset)
        ual = f"{CHAIN}/{len(self.published)}"
        self.minted[asset[CONTENT_HASH_IRI]] = ual
        return {"UAL": ual}


@pytest.fixture
def node() -> Iterator[tuple[Node, RemoteDkg]]:
    fake = Node()
    with replay_server(fake.answer) as url:
        dkg = RemoteDkg(
            url, private_key="0x" + "11" * 32, poll_interval_s=0.01, max_polls=3,
            request_timeout_s=5.0,
        )  # fmt: skip
        dkg._publisher._writer = SimpleNamespace(asset=SimpleNamespace(create=fake.mint))
        yield fake, dkg


def test_a_crash_right_after_the_mint_does_not_mint_again(
    node: tuple[Node, RemoteDkg], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, dkg = node
    engine = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    activities = DkgActivities(dkg, engine, (DkgError,), (DkgValidationError,))
    args = PublishArgs(runId="run-1", candidateId="cand-1", asset=ASSET)
    real_complete = DkgActivities._complete

    def crash(self: DkgActivities, args: PublishArgs, ual: str) -> str:
        raise SystemExit("worker killed between the mint and the ledger write")

    monkeypatch.setattr(DkgActivities, "_complete", crash)
    with pytest.raises(SystemExit):
        activities._publish(args)
    assert len(fake.published) == 1  # minted, paid for, not recorded
    with Session(engine) as session:
        assert session.exec(select(PublishRecord)).one().ual == ""

    monkeypatch.setattr(DkgActivities, "_complete", real_complete)
    retried = DkgActivities(dkg, engine, (DkgError,), (DkgValidationError,))._publish(args)
    assert len(fake.published) == 1, "no second mint"
    assert retried.ual == f"{CHAIN}/1" and retried.created is False
    with Session(engine) as session:
        assert session.exec(select(PublishRecord)).one().ual == retried.ual
    engine.dispose()


def test_the_minted_asset_carries_its_content_hash(node: tuple[Node, RemoteDkg]) -> None:
    fake, dkg = node
    first = dkg.publish(ASSET)
    assert first.created
    assert fake.published[0][CONTENT_HASH_IRI] == content_hash(ASSET)
    assert CONTENT_HASH_IRI not in ASSET  # the caller's asset is left alone
    # The same content again (another run, a scheduled re-mine): found, not minted.
    again = dkg.publish(dict(ASSET))
    assert again.ual == first.ual and again.created is False
    assert len(fake.published) == 1
    other = dkg.publish({**ASSET, "name": "B supplies C"})
    assert other.created and other.ual != first.ual and len(fake.published) == 2
