"""The local corpus index (SQLite FTS5/BM25 over passages): what a search answers, hostile
queries read as plain words, concurrent searches, and the demo corpus it ships with."""

from __future__ import annotations

import re
import threading
from collections import Counter
from pathlib import Path

import pytest

from storage.corpus.documents import parse_document
from storage.corpus.index import CorpusIndex, SearchHit, fts_query
from tests.storage.shipped_corpus import CORPUS_DIR, DOCS

PASSAGE_ID = re.compile(r"^[0-9a-f]{12}:\d+$")
# An added note whose rare words let the hostile-query tests tell FTS syntax from plain words:
# "quokkastone" and "wombatite" are far apart, neither is first, neither is in the title.
PROBE = """Field notes from the salt flats

The title of this note is plain. Quokkastone was logged near the old pumping station on the
first day of the survey, and the team moved north after lunch with a table of trench documents.
Much later, on the ridge, wombatite turned up in three separate trenches.
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> CorpusIndex:
    return CorpusIndex(tmp_path_factory.mktemp("corpus") / "index.db", CORPUS_DIR)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> CorpusIndex:
    """The shipped corpus plus one added note (the probe)."""
    root = tmp_path_factory.mktemp("library")
    (root / "probe.txt").write_text(PROBE, encoding="utf-8")
    idx = CorpusIndex(root / "index.db", CORPUS_DIR)
    assert len(idx.add([root / "probe.txt"]).added) == 1
    return idx


def source_of(path: Path) -> str:
    return parse_document(path.read_text(encoding="utf-8"), "").url


def ids(hits: list[SearchHit]) -> list[tuple[str, float]]:
    return [(h.passageId, h.score) for h in hits]


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


def test_every_document_is_indexed_as_passages(index: CorpusIndex) -> None:
    assert index.count() == len(DOCS)
    docs = index.documents()
    assert {d.origin for d in docs} == {"shipped"}
    assert {d.url for d in docs} == {source_of(p) for p in DOCS}
    assert all(d.passages >= 1 and d.tier is None for d in docs)
    assert sum(d.passages for d in docs) > len(DOCS)  # some documents hold several passages


def test_lithium_query_returns_lithium_documents_first(index: CorpusIndex) -> None:
    lithium_urls = {source_of(p) for p in DOCS if p.name.startswith("lithium_")}
    hits = index.search("lithium supplier geopolitical risk export controls", max_results=5)
    assert len(hits) == 5
    assert hits[0].url in lithium_urls and hits[1].url in lithium_urls
    assert sum(h.url in lithium_urls for h in hits) >= 4
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.score > 0 for h in hits)


def test_hit_fields_point_into_the_document_body(index: CorpusIndex) -> None:
    hit = index.search("Greenbushes Talison", max_results=1)[0]
    assert hit.title == "Tianqi Lithium and the economics of the Greenbushes stake"
    assert hit.url == "https://minerals-wire.example.com/2024/08/tianqi-greenbushes-stake"
    assert hit.published == "2024-08-20"
    assert hit.content.startswith("Tianqi Lithium holds a stake")
    assert "Source:" not in hit.content and "# " not in hit.content
    assert PASSAGE_ID.match(hit.passageId) and hit.tier is None
    body = index.document_text(hit.documentId)
    assert body is not None and body[hit.start : hit.end] == hit.content
    assert len(hit.content) < len(body)  # a passage, not the whole document
    assert index.passage(hit.passageId) == hit.model_copy(update={"score": 0.0})
    assert index.passage("nothing") is None and index.passage("0123456789ab:0") is None
    assert index.document_text(10**9) is None


def test_at_most_per_document_passages_of_one_document(index: CorpusIndex) -> None:
    one_each = index.search("lithium brine mine", max_results=10, per_document=1)
    assert len(one_each) == 10 and len({h.documentId for h in one_each}) == 10
    two_each = index.search("lithium brine mine", max_results=10, per_document=2)
    assert max(Counter(h.documentId for h in two_each).values()) == 2
    assert [h.score for h in two_each] == sorted((h.score for h in two_each), reverse=True)
    assert len({h.passageId for h in two_each}) == 10


def test_max_results_and_topic_routing(index: CorpusIndex) -> None:
    assert len(index.search("the", max_results=5)) == 0  # stopwords only
    assert len(index.search("lithium", max_results=2)) == 2
    assert index.search("lithium", max_results=0) == []
    assert index.search("Clarity AD lecanemab", 1)[0].url.startswith("https://trials-watch")
    assert index.search("tender contract award buses", 1)[0].url.startswith("https://tenders")
    assert index.search("megadrought water brine", 1)[0].url.startswith("https://climate-desk")


# (query, fts_query's exact output, the plain words it must behave like; None = no hits)
HOSTILE = [
    ('"', "", None),
    ('""', "", None),
    ("*", "", None),
    ("NEAR(", '"near"', "near"),
    ("NEAR(lithium chile)", '"near" OR "lithium" OR "chile"', "near lithium chile"),
    ("AND OR", "", None),
    ("OR", "", None),
    ("NOT", "", None),
    ("", "", None),
    ("   ", "", None),
    ('lithium" OR "x', '"lithium"', "lithium"),
    ("title:lithium", '"title" OR "lithium"', "title lithium"),
    ("-lithium", '"lithium"', "lithium"),
    ("^lithium", '"lithium"', "lithium"),
    ("a:b", "", None),
    ("(((", "", None),
    ("lithium*", '"lithium"', "lithium"),
    ("{title}: x", '"title"', "title"),
    ("'; DROP TABLE documents; --", '"drop" OR "table" OR "documents"', "drop table documents"),
    ("\x00", "", None),
    ("é ü ß", "", None),
]


@pytest.mark.parametrize(("query", "match", "plain"), HOSTILE)
def test_hostile_queries_are_plain_words(
    library: CorpusIndex, query: str, match: str, plain: str | None
) -> None:
    assert fts_query(query) == match
    hits = library.search(query, max_results=3)
    if plain is None:
        assert hits == []
    else:
        assert hits and ids(hits) == ids(library.search(plain, max_results=3))
        words = plain.split()
        for hit in hits:  # every hit holds one of the words as a plain word
            text = f"{hit.title} {hit.content}".lower()
            assert any(re.search(rf"\b{w}\b", text) for w in words), (query, hit.content)
    assert library.count() == len(DOCS) + 1


def probe_hits(library: CorpusIndex, query: str) -> list[str]:
    return [h.title for h in library.search(query, max_results=5) if h.url.endswith("probe.txt")]


@pytest.mark.parametrize(
    "query",
    [
        "title:quokkastone",  # a column filter would look in titles only: none has the word
        '"quokkastone wombatite"',  # a phrase would need the words side by side
        "NEAR(quokkastone wombatite, 2)",  # a NEAR group would need them within 2 tokens
        "^wombatite",  # an initial-token query would need it first in the column
        "quokkastone NOT wombatite",  # NOT would exclude the note
        "wombatite AND zzyzxunknown",  # AND would need a word no document has
        "quokkastone -wombatite",
    ],
)
def test_fts_syntax_typed_by_a_user_finds_the_words(library: CorpusIndex, query: str) -> None:
    assert probe_hits(library, query) == ["Field notes from the salt flats"]


def test_a_star_is_not_a_prefix_query(library: CorpusIndex) -> None:
    assert probe_hits(library, "quokkastone") == ["Field notes from the salt flats"]
    assert library.search("quokka*") == [] and library.search("wombat*") == []


def test_fts_query_quotes_every_token() -> None:
    assert fts_query("") == ""
    assert fts_query("the of and") == ""
    assert fts_query('Lithium "AND" NEAR(chile*)') == '"lithium" OR "near" OR "chile"'
    assert fts_query("SQM SQM sqm") == '"sqm"'
    assert fts_query("title:x_y café 2024") == '"title" OR "x_y" OR "café" OR "2024"'
    assert fts_query("!!! ... ??? --") == ""
    many = " ".join(f"w{i}" for i in range(40))
    assert fts_query(many) == " OR ".join(f'"w{i}"' for i in range(32))


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


def test_a_search_answer_keeps_at_most_two_passages_of_a_document_in_rank_order() -> None:
    from types import SimpleNamespace

    from mining.passage_selection import PER_DOCUMENT, per_document

    hits = [SimpleNamespace(documentId=d, n=i) for i, d in enumerate([1, 1, 2, 1, 3, 2, 2])]
    kept = per_document(hits, 10)
    assert [(h.documentId, h.n) for h in kept] == [(1, 0), (1, 1), (2, 2), (3, 4), (2, 5)]
    assert PER_DOCUMENT == 2
    assert [h.n for h in per_document(hits, 3)] == [0, 1, 2]


def test_search_keeps_the_names_of_a_bounded_number_of_documents(
    index: CorpusIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    import activities.search as search_module

    monkeypatch.setattr(search_module, "DOCUMENTS_KEPT", 2)
    search = search_module.CorpusSearch(index)
    hits = search.search("lithium exports restrictions royalty", 10)
    assert len({h["documentId"] for h in hits}) > 2  # more documents met than kept
    assert all(h["names"] is not None and "context" in h for h in hits)
    assert len(search._names) == 2  # noqa: SLF001


def test_a_hit_carries_its_documents_names_and_the_sentences_before_it(
    index: CorpusIndex,
) -> None:
    """Read from the index a slice at a time, they are what the whole body gives."""
    from activities.search import CorpusSearch
    from mining.passage_selection import context_before, document_names

    hits = CorpusSearch(index).search("lithium exports restrictions royalty", 10)
    assert any(h["context"] for h in hits) and any(h["names"] for h in hits)
    for hit in hits:
        body = index.document_text(hit["documentId"]) or ""
        assert hit["names"] == document_names(body)
        assert hit["context"] == context_before(body, hit["start"])
        assert index.document_slice(hit["documentId"], hit["start"], hit["end"]) == hit["content"]


def test_the_documents_of_the_best_hits_are_read_to_their_end(index: CorpusIndex) -> None:
    from activities.search import CorpusSearch
    from mining.passage_selection import (
        PER_DOCUMENT,
        WHOLE_DOCUMENT_PASSAGES,
        WHOLE_DOCUMENTS,
    )

    hits = CorpusSearch(index).search("lithium exports restrictions royalty", 4)
    ranked, read_on = hits[:4], hits[4:]
    top = list(dict.fromkeys(h["documentId"] for h in ranked[:WHOLE_DOCUMENTS]))
    for document_id in top:
        taken = {h["passageId"] for h in ranked}
        rest = [p.passageId for p in index.document_passages(document_id)
                if p.passageId not in taken][:WHOLE_DOCUMENT_PASSAGES]  # fmt: skip
        assert rest == [h["passageId"] for h in read_on if h["documentId"] == document_id]
    # Only those documents are read on, each passage once, after the ranked hits.
    assert {h["documentId"] for h in read_on} <= set(top)
    assert len({h["passageId"] for h in hits}) == len(hits)
    assert sum(h["documentId"] == ranked[0]["documentId"] for h in ranked) <= PER_DOCUMENT
