"""The local corpus index (SQLite FTS5/BM25) and the demo corpus it ships with."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.corpus_index import CorpusIndex, fts_query, parse_document
from storage.dkg_store import SEED_DIR, EmbeddedDkg

CORPUS_DIR = Path(__file__).resolve().parents[1] / "storage" / "corpus"
DOCS = sorted(CORPUS_DIR.glob("*.md"))

# Relation sentences the extraction tools are expected to find: (file, sentence, entities).
RELATIONS = [
    ("lithium_01_ganfeng_tesla.md",
     "Ganfeng Lithium supplies lithium hydroxide to Tesla", ["Ganfeng Lithium", "Tesla"]),
    ("lithium_01_ganfeng_tesla.md", "Ganfeng Lithium operates the Goulamina mine in Mali",
     ["Ganfeng Lithium", "Goulamina mine", "Mali"]),
    ("lithium_02_sqm_codelco.md", "SQM operates in the Salar de Atacama",
     ["SQM", "Salar de Atacama"]),
    ("lithium_02_sqm_codelco.md", "Codelco partners with SQM", ["Codelco", "SQM"]),
    ("lithium_03_tianqi_greenbushes.md", "Tianqi Lithium holds a stake in the Greenbushes mine",
     ["Tianqi Lithium", "Greenbushes mine"]),
    ("lithium_03_tianqi_greenbushes.md", "Talison Lithium operates the Greenbushes mine",
     ["Talison Lithium", "Greenbushes mine"]),
    ("lithium_04_chile_royalty.md", "Chile's royalty reform raises geopolitical risk for SQM",
     ["Chile", "SQM"]),
    ("lithium_05_china_export_controls.md", "CATL buys lithium carbonate from Tianqi Lithium",
     ["CATL", "Lithium carbonate", "Tianqi Lithium"]),
    ("lithium_06_zimbabwe_ban.md", "Sinomine owns the Bikita mine", ["Sinomine", "Bikita mine"]),
    ("lithium_07_drc_manono.md", "Zijin Mining partners with Cominière at Manono",
     ["Zijin Mining", "Cominière", "Manono"]),
    ("lithium_08_bolivia_ylb.md", "YLB controls the Salar de Uyuni", ["YLB", "Salar de Uyuni"]),
    ("lithium_09_mexico_nationalisation.md", "Mexico nationalised lithium in 2022",
     ["Mexico"]),
    ("lithium_10_pilbara_offtakes.md", "Pilbara Minerals operates the Pilgangoora project",
     ["Pilbara Minerals", "Pilgangoora project"]),
    ("lithium_10_pilbara_offtakes.md",
     "Pilbara Minerals supplies spodumene concentrate to Ganfeng\nLithium",
     ["Pilbara Minerals", "Spodumene concentrate", "Ganfeng Lithium"]),
    ("lithium_11_rio_arcadium.md", "Rio Tinto acquired Arcadium Lithium",
     ["Rio Tinto", "Arcadium Lithium"]),
    ("lithium_12_australia_hard_rock.md", "Mineral Resources operates the Wodgina mine with "
     "Albemarle", ["Mineral Resources", "Wodgina mine", "Albemarle"]),
    ("lithium_13_us_tariffs.md", "LG Energy Solution buys lithium carbonate from\nSQM",
     ["LG Energy Solution", "SQM"]),
    ("lithium_14_argentina_rigi.md", "Eramet operates in Argentina", ["Eramet", "Argentina"]),
    ("climate_03_atacama_water.md", "increases water risk for SQM and Albemarle",
     ["Chile megadrought", "SQM", "Albemarle"]),
    ("procurement_01_tfl_buses.md", "Transport for London awarded a contract to Wrightbus",
     ["Transport for London", "Wrightbus"]),
    ("procurement_02_dla_lithium.md", "The Defense Logistics Agency awarded a contract to "
     "Albemarle", ["Defense Logistics Agency", "Albemarle"]),
    ("procurement_04_gsa_fluence.md", "Fluence buys LFP battery cells from CATL",
     ["Fluence", "LFP battery cell", "CATL"]),
    ("trials_01_clarity_ad.md", "Eisai sponsors the Clarity AD trial of Lecanemab",
     ["Eisai", "Clarity AD", "Lecanemab"]),
    ("trials_02_surmount.md", "Eli Lilly sponsors SURMOUNT-1, which tested Tirzepatide",
     ["Eli Lilly", "SURMOUNT-1", "Tirzepatide"]),
]  # fmt: skip


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> CorpusIndex:
    return CorpusIndex(tmp_path_factory.mktemp("corpus") / "index.db", CORPUS_DIR)


@pytest.fixture(scope="module")
def gazetteer() -> Iterator[list[tuple[str, str, str]]]:
    dkg = EmbeddedDkg(None)
    dkg.ensure_seeded(SEED_DIR)
    yield dkg.gazetteer()
    dkg.close()


def source_of(path: Path) -> str:
    return parse_document(path.read_text(encoding="utf-8"), "").url


def test_corpus_shape() -> None:
    assert len(DOCS) >= 24
    groups = {"lithium": 0, "climate": 0, "procurement": 0, "trials": 0}
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        assert lines[0].startswith("# ")
        assert re.match(r"Source: https://[\w.-]+\.example\.(org|com|net)/\S+$", lines[1])
        assert re.match(r"Published: \d{4}-\d{2}-\d{2}$", lines[2])
        words = len(text.split())
        assert 80 <= words <= 250, (path.name, words)
        groups[path.name.split("_")[0]] += 1
    assert groups["lithium"] >= 10
    assert min(groups.values()) >= 3


def test_every_document_is_indexed(index: CorpusIndex) -> None:
    assert index.count() == len(DOCS)


def test_lithium_query_returns_lithium_documents_first(index: CorpusIndex) -> None:
    lithium_urls = {source_of(p) for p in DOCS if p.name.startswith("lithium_")}
    hits = index.search("lithium supplier geopolitical risk export controls", max_results=5)
    assert len(hits) == 5
    assert hits[0].url in lithium_urls and hits[1].url in lithium_urls
    assert sum(h.url in lithium_urls for h in hits) >= 4
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.score > 0 for h in hits)


def test_hit_fields(index: CorpusIndex) -> None:
    hit = index.search("Greenbushes Talison", max_results=1)[0]
    assert hit.title == "Tianqi Lithium and the economics of the Greenbushes stake"
    assert hit.url == "https://minerals-wire.example.com/2024/08/tianqi-greenbushes-stake"
    assert hit.published == "2024-08-20"
    assert hit.content.startswith("Tianqi Lithium holds a stake")
    assert "Source:" not in hit.content and "# " not in hit.content


def test_max_results_and_topic_routing(index: CorpusIndex) -> None:
    assert len(index.search("the", max_results=5)) == 0  # stopwords only
    assert len(index.search("lithium", max_results=2)) == 2
    assert index.search("Clarity AD lecanemab", 1)[0].url.startswith("https://trials-watch")
    assert index.search("tender contract award buses", 1)[0].url.startswith("https://tenders")
    assert index.search("megadrought water brine", 1)[0].url.startswith("https://climate-desk")


@pytest.mark.parametrize(
    "query",
    ['"', '""', "*", "NEAR(", "NEAR(lithium chile)", "AND OR", "OR", "NOT", "", "   ",
     "lithium\" OR \"x", "title:lithium", "-lithium", "^lithium", "a:b", "(((", "lithium*",
     "{title}: x", "'; DROP TABLE documents; --", "\x00", "é ü ß"],
)  # fmt: skip
def test_hostile_queries_never_raise(index: CorpusIndex, query: str) -> None:
    hits = index.search(query, max_results=3)
    assert isinstance(hits, list) and len(hits) <= 3
    assert index.count() == len(DOCS)


def test_fts_query_quotes_every_token() -> None:
    assert fts_query("") == ""
    assert fts_query("the of and") == ""
    assert fts_query('Lithium "AND" NEAR(chile*)') == '"lithium" OR "near" OR "chile"'
    assert fts_query("SQM SQM sqm") == '"sqm"'


def test_reindex_is_idempotent_and_tracks_changes(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    shutil.copytree(CORPUS_DIR, corpus)
    db = tmp_path / "idx.db"
    idx = CorpusIndex(db, corpus)
    assert idx.count() == len(DOCS)
    assert idx.refresh() == 0
    assert CorpusIndex(db, corpus).count() == len(DOCS)  # reopening does not duplicate

    target = corpus / DOCS[0].name
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert idx.refresh() == 0  # touched, same bytes

    target.write_text(target.read_text(encoding="utf-8") + "\nZanzibarite deposits too.\n")
    assert idx.refresh() == 1
    assert (
        idx.search("zanzibarite")[0].title
        == parse_document(target.read_text(encoding="utf-8"), "").title
    )

    new = corpus / "zz_new.md"
    new.write_text("# New doc\nSource: https://news.example.org/new\n\nQuokkastone found.\n")
    (corpus / DOCS[1].name).unlink()
    assert idx.refresh() == 2
    assert idx.count() == len(DOCS)
    assert idx.search("quokkastone")[0].published is None
    assert idx.refresh() == 0


def test_concurrent_searches(index: CorpusIndex) -> None:
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(20):
                assert index.search("lithium Chile SQM", 3)
        except BaseException as exc:  # collected for the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_each_document_mentions_at_least_two_seed_entities(
    gazetteer: list[tuple[str, str, str]],
) -> None:
    labels = {label for label, _, _ in gazetteer if len(label) >= 3}
    patterns = {label: re.compile(rf"(?<!\w){re.escape(label)}(?!\w)", re.I) for label in labels}
    for path in DOCS:
        text = " ".join(path.read_text(encoding="utf-8").split())
        found = {label.lower() for label, pattern in patterns.items() if pattern.search(text)}
        assert len(found) >= 2, (path.name, found)


@pytest.mark.parametrize(("name", "sentence", "entities"), RELATIONS)
def test_relation_sentences_name_seeded_entities(
    gazetteer: list[tuple[str, str, str]], name: str, sentence: str, entities: list[str]
) -> None:
    text = (CORPUS_DIR / name).read_text(encoding="utf-8")
    assert " ".join(sentence.split()) in " ".join(text.split())
    labels = {label for label, _, _ in gazetteer}
    for entity in entities:
        assert entity in labels, entity
        assert entity.lower() in " ".join(text.split()).lower()
