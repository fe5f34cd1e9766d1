"""The parse a reader gets: offsets into the text as given, and a sentence read the same
whatever spacing stands before it (paragraph breaks, a passage's lead-in)."""

from __future__ import annotations

from mining.parsing import parse

# Read differently by the small model after two spaces than after one (telecoms: no
# labeled set uses it).
SENTENCE = (
    "In Europe, Oulu Telecom, the Finnish carrier, has signed with Nokia for radios at the"
    " Espoo plant in Finland from 2026."
)
LEAD = "Harbour Air said it had let its lease with Boreal expire in 2021."


def _tree(doc: object, first: int) -> list[tuple[str, str, int]]:
    sent = list(doc.sents)[-1]  # type: ignore[attr-defined]
    return [(t.text, t.dep_, t.head.i - sent.start) for t in sent if not t.is_space][first:]


def test_a_paragraph_break_before_a_sentence_does_not_change_its_parse() -> None:
    after_break = parse(f"{LEAD}\n\n{SENTENCE}")
    after_space = parse(f"{LEAD} {SENTENCE}")
    assert _tree(after_break, 0) == _tree(after_space, 0)
    subject = next(t for t in after_break if t.text == "Telecom")
    assert subject.dep_ == "nsubj"


def test_offsets_stay_those_of_the_text_given() -> None:
    text = "  Fjord Cargo hired Nordic Tugs.\n\n\n  It paid   Arctic Haul in May.  "
    doc = parse(text)
    assert doc.text == text.replace("\n", " ")
    for tok in doc:
        assert doc.text[tok.idx : tok.idx + len(tok)] == tok.text
    names = {e.text for e in doc.ents}
    for name in names:
        assert name in text
    assert [s.text.strip() for s in doc.sents if s.text.strip()][:2] == [
        "Fjord Cargo hired Nordic Tugs.",
        "It paid   Arctic Haul in May.",
    ]


def test_a_text_without_runs_of_spaces_is_parsed_as_it_stands() -> None:
    doc = parse("Fjord Cargo hired Nordic Tugs.")
    assert [t.text for t in doc] == ["Fjord", "Cargo", "hired", "Nordic", "Tugs", "."]
