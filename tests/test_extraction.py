"""Deterministic statement extraction from activities/extraction.py."""

from __future__ import annotations

from activities.extraction import (
    Statement,
    extract_statements,
    mentions,
    predicate_for,
    split_sentences,
)

GANFENG = "did:dkg:otp:20430/0xcdb/1"
GANFENG_CO = "did:dkg:otp:20430/0xcdb/2"
TESLA = "did:dkg:otp:20430/0xcdb/3"
LIOH = "did:dkg:otp:20430/0xcdb/4"
CHILE = "did:dkg:otp:20430/0xcdb/5"
SQM = "did:dkg:otp:20430/0xcdb/6"
SRC = "https://www.reuters.com/ganfeng-tesla"

GAZ: list[tuple[str, str, str]] = [
    ("Ganfeng Lithium Co., Ltd.", GANFENG_CO, "Organization"),
    ("lithium hydroxide", LIOH, "Product"),
    ("Ganfeng Lithium", GANFENG, "Organization"),
    ("Tesla", TESLA, "Organization"),
    ("Chile", CHILE, "Country"),
    ("SQM", SQM, "Organization"),
]


def triples(statements: list[Statement]) -> list[tuple[str, str, str]]:
    return [(s.subject, s.predicate, s.object) for s in statements]


def test_supply_sentence_yields_statement_with_provenance() -> None:
    text = "Ganfeng Lithium supplies lithium hydroxide to Tesla."
    small = [("Ganfeng Lithium", GANFENG, "Organization"), ("Tesla", TESLA, "Organization")]
    assert extract_statements(text, SRC, small) == [
        Statement(
            subject="Ganfeng Lithium",
            subjectUal=GANFENG,
            subjectType="Organization",
            predicate="supplies",
            object="Tesla",
            objectUal=TESLA,
            objectType="Organization",
            sentence="Ganfeng Lithium supplies lithium hydroxide to Tesla.",
            source=SRC,
        )
    ]


def test_supplies_x_to_b_links_both_product_and_recipient() -> None:
    out = extract_statements("Ganfeng Lithium supplies lithium hydroxide to Tesla.", SRC, GAZ)
    assert triples(out) == [
        ("Ganfeng Lithium", "supplies", "lithium hydroxide"),
        ("Ganfeng Lithium", "supplies", "Tesla"),
    ]
    assert out[1].objectUal == TESLA and out[0].objectType == "Product"


def test_abbreviations_and_decimals_do_not_split_sentences() -> None:
    text = (
        "Ganfeng Lithium Co., Ltd. signed a supply agreement with Tesla Inc. on Monday. "
        "Prices rose 3.5 percent in the U.S. market. Dr. Smith of the U.S. Department of "
        "Energy agreed! J. R. Smith did not?"
    )
    assert split_sentences(text) == [
        "Ganfeng Lithium Co., Ltd. signed a supply agreement with Tesla Inc. on Monday.",
        "Prices rose 3.5 percent in the U.S. market.",
        "Dr. Smith of the U.S. Department of Energy agreed!",
        "J. R. Smith did not?",
    ]
    out = extract_statements(text, SRC, GAZ)
    assert triples(out) == [("Ganfeng Lithium Co., Ltd.", "supplies", "Tesla")]
    assert out[0].sentence.startswith("Ganfeng Lithium Co., Ltd. signed")


def test_blank_lines_bullets_and_headings_end_sentences() -> None:
    text = "# Lithium news\nTesla expands\n\n- SQM is supplied by Ganfeng Lithium\n- Chile"
    assert split_sentences(text) == [
        "Lithium news",
        "Tesla expands",
        "SQM is supplied by Ganfeng Lithium",
        "Chile",
    ]


def test_overlapping_labels_prefer_longest_without_overlap() -> None:
    found = mentions("ganfeng lithium co., ltd. and GANFENG  LITHIUM", GAZ)
    assert [(m[0], m[1], m[3], m[4]) for m in found] == [
        ("Ganfeng Lithium Co., Ltd.", GANFENG_CO, 0, 25),
        ("Ganfeng Lithium", GANFENG, 30, 46),
    ]
    # word boundaries: no match inside a longer word
    assert mentions("Teslas and SQMs", GAZ) == []


def test_risk_keyword_sentence_yields_has_risk_signal() -> None:
    out = extract_statements(
        "Chile announced higher royalties and a possible export ban.", SRC, GAZ
    )
    assert triples(out) == [
        ("Chile", "hasRiskSignal", "royalty"),
        ("Chile", "hasRiskSignal", "export ban"),
    ]
    assert all(s.objectUal is None and s.source == SRC for s in out)
    # one entity without a risk keyword gives nothing
    assert extract_statements("Chile is a beautiful country.", SRC, GAZ) == []


def test_no_entities_no_statements() -> None:
    assert extract_statements("Prices rose after a drought and a strike.", SRC, GAZ) == []
    assert extract_statements("", SRC, GAZ) == []
    assert extract_statements("Tesla supplies SQM.", SRC, []) == []


def test_passive_and_inverse_phrasings_swap_direction() -> None:
    assert triples(extract_statements("SQM is supplied by Ganfeng Lithium.", SRC, GAZ)) == [
        ("Ganfeng Lithium", "supplies", "SQM")
    ]
    assert triples(extract_statements("Tesla's main supplier SQM.", SRC, GAZ)) == [
        ("SQM", "supplies", "Tesla")
    ]
    assert triples(extract_statements("Ganfeng Lithium, a unit of SQM, grew.", SRC, GAZ)) == [
        ("SQM", "ownsStakeIn", "Ganfeng Lithium")
    ]


def test_predicate_table() -> None:
    assert predicate_for(" operates two mines in ") == ("operatesIn", False)
    assert predicate_for(" is headquartered in ") == ("locatedIn", False)
    assert predicate_for(" in ") == ("locatedIn", False)
    assert predicate_for(" acquired a 20% stake in ") == ("ownsStakeIn", False)
    assert predicate_for(" formed a joint venture with ") == ("partnerOf", False)
    assert predicate_for(" exports lithium to ") == ("exportsTo", False)
    assert predicate_for(" imposed tariffs on ") == ("restricts", False)
    assert predicate_for(" threatens output at ") == ("raisesRiskFor", False)
    assert predicate_for(" is funded by ") == ("sponsors", True)
    assert predicate_for(" and ") == ("relatedTo", False)
    assert predicate_for("; meanwhile, ") is None
    assert predicate_for(" " + "word " * 13) is None


def test_dedup_and_cap() -> None:
    text = "Tesla partners with SQM. Tesla partnered with SQM again. Chile hit SQM."
    out = extract_statements(text, SRC, GAZ)
    assert triples(out) == [("Tesla", "partnerOf", "SQM"), ("Chile", "affects", "SQM")]
    assert out[0].sentence == "Tesla partners with SQM."  # first provenance kept
    assert len(extract_statements(text, SRC, GAZ, max_statements=1)) == 1


def test_deterministic() -> None:
    text = (
        "Ganfeng Lithium supplies lithium hydroxide to Tesla. Chile faces a drought. "
        "SQM operates in Chile; Tesla studies SQM."
    )
    first = [s.model_dump() for s in extract_statements(text, SRC, GAZ)]
    second = [s.model_dump() for s in extract_statements(text, SRC, list(GAZ))]
    assert first == second and first


def test_a_large_gazetteer_finds_the_right_entities_in_every_document() -> None:
    gaz = [(f"Company {i} Holdings", f"did:dkg:x/{i}", "Organization") for i in range(1000)]
    sentence = "Company 17 Holdings supplies cathodes to Company 923 Holdings in 2024. "
    docs = [sentence * 20 + "Prices rose 2.5 percent." for _ in range(200)]
    found = [extract_statements(d, f"doc{i}", gaz) for i, d in enumerate(docs)]
    # Repeated sentences collapse to one statement per document.
    assert [len(statements) for statements in found] == [1] * 200
    first = found[0][0]
    assert (first.subjectUal, first.predicate, first.objectUal) == (
        "did:dkg:x/17",
        "supplies",
        "did:dkg:x/923",
    )
