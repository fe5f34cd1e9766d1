"""Lookups in the embedded DKG: related assets ranked by label, near-duplicates, the
gazetteer longest label first, and the label index among 100,000 assets."""

from __future__ import annotations

from collections.abc import Iterator

from mining.names import normalise_name
from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.label_index import IndexEntry, build_index, entry_from_asset
from tests.support.embedded_dkg import asset, ual_of


def test_find_related_ranks_exact_label_first(seeded: EmbeddedDkg) -> None:
    hits = seeded.find_related("ganfeng lithium", limit=5)
    # Both the full record (alternateName) and the low-stake duplicate match exactly;
    # the higher stake wins the tie.
    assert [h.label for h in hits[:2]] == ["Ganfeng Lithium Co., Ltd.", "Ganfeng Lithium"]
    assert hits[0].score == 1.0 and hits[0].stakeAmount > hits[1].stakeAmount
    assert hits[2].score < 1.0
    sqm = seeded.find_related("SQM", limit=3)
    assert sqm[0].label == "Sociedad Química y Minera de Chile S.A."
    assert sqm[0].type == "Corporation"
    by_id = seeded.find_related("ISO3166-1:BO", limit=1)
    assert by_id[0].label == "Bolivia"


def test_find_related_orders_exact_token_substring(fresh: EmbeddedDkg) -> None:
    for name, stake in [("Lith", 1), ("Lith Corp Holdings", 5), ("Monolithic Ltd", 9)]:
        fresh.publish(asset(name), publisher="0x1", stake_amount=stake)
    hits = fresh.find_related("lith", limit=10)
    assert [h.label for h in hits] == ["Lith", "Lith Corp Holdings", "Monolithic Ltd"]
    assert hits[0].score > hits[1].score > hits[2].score > 0


def test_find_related_type_filter(seeded: EmbeddedDkg) -> None:
    drugs = seeded.find_related("Lithium carbonate", types=["Drug"], limit=3)
    products = seeded.find_related("Lithium carbonate", types=["Product"], limit=3)
    orgs = seeded.find_related("Albemarle", types=["Organization"], limit=3)
    assert drugs[0].type == "Drug" and products[0].type == "Product"
    assert all(h.type in {"Corporation", "Organization"} for h in orgs)


def test_find_related_sees_new_publications(fresh: EmbeddedDkg) -> None:
    assert fresh.find_related("Zyx Lithium") == []
    ual = fresh.publish(asset("Zyx Lithium"), publisher="0x1").ual
    assert fresh.find_related("Zyx Lithium")[0].ual == ual


def test_find_duplicates_finds_seeded_near_duplicates(seeded: EmbeddedDkg) -> None:
    main = ual_of(seeded, "Ganfeng Lithium Co., Ltd.")
    dup = ual_of(seeded, "Ganfeng Lithium")
    candidate = {"@context": "https://schema.org/", "@type": "Corporation",
                 "name": "Ganfeng Lithium Co., Ltd.", "identifier": ""}  # fmt: skip
    by_name = seeded.find_duplicates(candidate)
    assert {m.ual for m in by_name} >= {main, dup}
    assert all(m.reason == "same type and name" for m in by_name)
    main_doc = seeded.get_asset(main)
    assert main_doc is not None
    by_id = {m.ual: m.reason for m in seeded.find_duplicates(main_doc)}
    assert by_id[main] == by_id[dup] == "same identifier"
    albemarle = seeded.find_duplicates({"@type": "Organization", "name": "ALBEMARLE, Inc."})
    assert ual_of(seeded, "Albemarle Corporation") in {m.ual for m in albemarle}
    assert ual_of(seeded, "Albemarle Corp.") in {m.ual for m in albemarle}
    assert seeded.find_duplicates({"@type": "Drug", "name": "Albemarle"}) == []


def test_normalise_name_drops_legal_suffixes() -> None:
    assert normalise_name("Ganfeng Lithium Co., Ltd.") == "ganfeng lithium"
    assert normalise_name("Sociedad Química y Minera de Chile S.A.") == (
        "sociedad quimica y minera de chile"
    )
    assert normalise_name("  Merck & Co.,   Inc. ") == "merck"
    assert normalise_name("Co") == "co"


def test_gazetteer_longest_first(seeded: EmbeddedDkg) -> None:
    gaz = seeded.gazetteer()
    lengths = [len(label) for label, _, _ in gaz]
    assert lengths == sorted(lengths, reverse=True)
    entries = {(label, type_) for label, _, type_ in gaz}
    assert ("SQM", "Corporation") in entries and ("Greenbushes", "Place") in entries
    # One label, several assets: the best-staked one comes first ("first wins" downstream).
    for label in ("Chile", "Ganfeng Lithium", "Clarity AD"):
        first = next(ual for name, ual, _ in gaz if name == label)
        stakes = [seeded.get_metadata(ual) for name, ual, _ in gaz if name == label]
        best = max((m for m in stakes if m), key=lambda m: m.stakeAmount)
        assert len(stakes) == 2 and first == best.ual, label


def test_label_index_ranks_right_among_100k_assets() -> None:
    # Speed is measured by bench/dkg.py; this checks the answers at that scale.
    def entries() -> Iterator[IndexEntry]:
        for i in range(100_000):
            name = f"Lithium Holding {i}" if i % 10 == 0 else f"Entity {i} Minerals Group"
            doc = {"@type": "Corporation", "name": name, "identifier": f"ID{i}"}
            yield entry_from_asset(f"u{i}", doc, float(i % 997))

    index = build_index(entries())
    for i in range(1, 51):
        n = i * 10 + 3
        assert index.related(f"Entity {n} Minerals Group", 10)[0].entry.ual == f"u{n}"
        assert index.related(f"lithium holding {i * 10}", 5)[0].entry.ual == f"u{i * 10}"
    assert index.related("ID4242", 1)[0].entry.ual == "u4242"
    assert len(index.related("minerals", 10)) == 10
