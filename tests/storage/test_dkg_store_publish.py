"""Publishing to the embedded DKG on a real pyoxigraph store: what comes back, one asset
per content, invalid JSON-LD refused, unique tokens under concurrent publishing, and a
store reopened from disk."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.embedded_records import UAL_PREFIX
from storage.dkg.interface import DkgValidationError
from tests.support.embedded_dkg import asset


def test_publish_and_get_round_trip(fresh: EmbeddedDkg) -> None:
    doc = asset(
        "Lithium Test Refinery",
        "Place",
        **{
            "@id": "urn:kminer:test:refinery",
            "identifier": "urn:test:1",
            "alternateName": ["LTR", "Test refinery"],
            "maximumAttendeeCapacity": 40,
            "isAccessibleForFree": False,
            "latitude": -31.5,
            "containedInPlace": {"@id": "urn:kminer:country:au"},
            "address": {"@type": "PostalAddress", "addressCountry": "AU"},
        },
    )
    result = fresh.publish(doc, publisher="0x" + "ab" * 20, stake_amount=75_000.5,
                           domain="supply_chain", publish_time="2024-05-01T10:00:00Z")  # fmt: skip
    assert result.created and result.ual == UAL_PREFIX + "1"
    assert fresh.get_asset(result.ual) == doc
    meta = fresh.get_metadata(result.ual)
    assert meta is not None
    assert (meta.tokenId, meta.stakeAmount, meta.updateCount) == (1, 75_000.5, 0)
    assert (meta.publishTime, meta.domain, meta.label) == ("2024-05-01T10:00:00Z", "supply_chain",
                                                           "Lithium Test Refinery")  # fmt: skip
    rows = fresh.query(
        f"SELECT ?cap ?free ?lat ?c WHERE {{ GRAPH <{result.ual}> {{ <urn:kminer:test:refinery>"
        " schema:maximumAttendeeCapacity ?cap ; schema:isAccessibleForFree ?free ;"
        " schema:latitude ?lat ; schema:containedInPlace ?c ;"
        " schema:address [ schema:addressCountry 'AU' ] ;"
        " schema:alternateName 'LTR', 'Test refinery' } }"
    ).rows
    assert rows == [{"cap": 40, "free": False, "lat": -31.5, "c": "urn:kminer:country:au"}]


def test_asset_without_id_uses_the_ual_as_subject(fresh: EmbeddedDkg) -> None:
    ual = fresh.publish(asset("Anonymous Co"), publisher="0x1").ual
    assert fresh.query(f"ASK {{ <{ual}> schema:name 'Anonymous Co' }}").boolean is True
    assert "@id" not in (fresh.get_asset(ual) or {"@id": 1})


def test_publish_is_idempotent_per_content(fresh: EmbeddedDkg) -> None:
    doc = asset("Acme Lithium", identifier="urn:test:acme")
    first = fresh.publish(doc, publisher="0x1", stake_amount=10)
    reordered = dict(reversed(list(doc.items())))
    second = fresh.publish(reordered, publisher="0x2", stake_amount=99)
    assert (second.ual, second.created) == (first.ual, False)
    assert fresh.count_assets() == 1
    other = fresh.publish({**doc, "description": "changed"}, publisher="0x1")
    assert other.created and other.ual == UAL_PREFIX + "2"


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"@context": "https://schema.org/", "name": "No type"}, "@type"),
        ({"@context": "https://schema.org/", "@type": "", "name": "Empty"}, "@type"),
        ({"@context": "https://schema.org/", "@type": [], "name": "Empty"}, "@type"),
        ({"@type": "Organization", "name": "No context"}, "@context"),
        ({"@context": "https://example.org/ctx", "@type": "Thing"}, "@context"),
        ({"@context": 5, "@type": "Thing"}, "@context"),
        (["not", "an", "object"], "object"),
        (
            {"@context": "https://schema.org/", "@type": "Thing", "url": {"@id": "not an iri"}},
            "IRI",
        ),
    ],
)
def test_invalid_assets_are_refused(fresh: EmbeddedDkg, doc: Any, message: str) -> None:
    with pytest.raises(DkgValidationError, match=message):
        fresh.publish(doc, publisher="0x1")
    assert fresh.count_assets() == 0


def test_context_object_with_vocab_is_accepted(fresh: EmbeddedDkg) -> None:
    doc = {"@context": {"@vocab": "http://schema.org/"}, "@type": "Thing", "name": "Vocab"}
    ual = fresh.publish(doc, publisher="0x1").ual
    assert fresh.query(f"ASK {{ <{ual}> a schema:Thing }}").boolean is True


def test_concurrent_publish_mints_unique_tokens(fresh: EmbeddedDkg) -> None:
    shared = asset("Shared Asset")
    results: list[str] = []
    lock = threading.Lock()

    def worker(n: int) -> None:
        for i in range(10):
            uals = [
                fresh.publish(asset(f"Worker {n} asset {i}"), publisher="0x1").ual,
                fresh.publish(shared, publisher="0x1").ual,
            ]
            with lock:
                results.extend(uals)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fresh.count_assets() == 61
    assert len(set(results)) == 61
    tokens = fresh.query("SELECT ?t WHERE { ?u dkg:tokenId ?t }", row_limit=1000).rows
    assert sorted(row["t"] for row in tokens) == list(range(1, 62))  # type: ignore[type-var]


def test_reopen_on_disk_store_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "disk"
    dkg = EmbeddedDkg(path)
    first = dkg.publish(asset("Persistent Lithium Ltd"), publisher="0x1", stake_amount=5)
    dkg.close()
    reopened = EmbeddedDkg(path)
    try:
        assert reopened.count_assets() == 1
        assert reopened.get_asset(first.ual) == asset("Persistent Lithium Ltd")
        assert reopened.find_related("Persistent Lithium")[0].ual == first.ual
        again = reopened.publish(asset("Persistent Lithium Ltd"), publisher="0x1")
        assert (again.ual, again.created) == (first.ual, False)
        nxt = reopened.publish(asset("Second Asset"), publisher="0x1")
        assert nxt.ual == UAL_PREFIX + "2"
    finally:
        reopened.close()
