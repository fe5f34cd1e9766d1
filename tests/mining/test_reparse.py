"""A sentence the small parser reads without a finite verb is read again in parts; one it
reads with a finite verb is left as it was. Sentences from domains no labeled set uses
(medicines regulation, shipping, manufacturing, rail, forestry)."""

from __future__ import annotations

from mining.parsing import parse, pipeline
from mining.reparse import has_finite_root, plans, repaired
from tests.mining.test_open_relations import relations

# Each read by the small model with a noun at its root: the verb is lost.
LONG_APPOSITION = (
    "EMA, the European Medicines and Healthcare Products Evaluation Agency, advised hospitals"
    " and clinics to withdraw Zolgenix vials from the affected batch and to report reactions."
)
VERB_READ_AS_NOUN = (
    "Harbour Systems manufactures all pallets supplied under the framework at its yard in Gdansk."
)


def _token(doc: object, text: str) -> object:
    return next(t for t in doc if t.text == text)  # type: ignore[attr-defined]


def test_the_small_parser_reads_these_sentences_without_a_verb() -> None:
    nlp = pipeline()
    for text in (LONG_APPOSITION, VERB_READ_AS_NOUN):
        first = next(iter(nlp(text).sents))
        assert not has_finite_root(first.root)


def test_an_apposition_taken_apart_gives_the_sentence_its_verb_back() -> None:
    doc = parse(LONG_APPOSITION)
    advised = _token(doc, "advised")
    assert advised.dep_ == "ROOT" and advised.tag_ == "VBD"  # type: ignore[attr-defined]
    assert _token(doc, "EMA").dep_ == "nsubj"  # type: ignore[attr-defined]
    agency = _token(doc, "Agency")
    assert agency.dep_ == "appos" and agency.head.text == "EMA"  # type: ignore[attr-defined]
    assert len(list(doc.sents)) == 1


def test_the_parts_keep_their_words_and_offsets() -> None:
    doc = parse(LONG_APPOSITION)
    assert doc.text == LONG_APPOSITION
    assert [t.idx for t in doc] == [t.idx for t in pipeline()(LONG_APPOSITION)]


def test_a_verb_read_as_a_plural_noun_is_the_verb_of_its_name_again() -> None:
    doc = parse(VERB_READ_AS_NOUN)
    verb = _token(doc, "manufactures")
    assert verb.dep_ == "ROOT" and verb.pos_ == "VERB"  # type: ignore[attr-defined]
    systems = _token(doc, "Systems")
    assert systems.dep_ == "nsubj" and systems.pos_ == "PROPN"  # type: ignore[attr-defined]
    assert _token(doc, "Harbour").head.text == "Systems"  # type: ignore[attr-defined]
    assert {s for s, _, o in relations(VERB_READ_AS_NOUN, ["Harbour Systems", "Gdansk"])} == {
        "Harbour Systems"
    }


def test_a_relative_clause_aside_hangs_on_the_noun_before_it() -> None:
    text = (
        "Ostland, which fells about a third of the birch cut in the region, banned exports"
        " of raw logs in 2022."
    )
    sent = next(iter(pipeline()(text).sents))
    relative = next(p for plan in plans(sent) for p in plan if p.kind == "relative")
    assert sent.doc[relative.start].text == "," and sent.doc[relative.end - 1].text == ","
    doc = parse(text)
    if not has_finite_root(sent.root):  # read again: the clause hangs on "Ostland"
        fells = _token(doc, "fells")
        assert fells.dep_ == "relcl" and fells.head.text == "Ostland"  # type: ignore[attr-defined]
    assert _token(doc, "banned").dep_ == "ROOT"  # type: ignore[attr-defined]


def test_a_leading_phrase_is_taken_out_up_to_its_comma() -> None:
    text = "Through Nordic Rail Freight, Sweden has so far sent timber to Narvik and Oulu."
    sent = next(iter(pipeline()(text).sents))
    lead = plans(sent)[0][0]
    assert lead.kind == "lead"
    assert sent.doc[lead.start : lead.end].text == "Through Nordic Rail Freight,"


def test_a_sentence_with_a_finite_verb_is_left_as_the_parser_read_it() -> None:
    nlp = pipeline()
    first = nlp("Kestrel Books publishes crime novels through its imprint in Leeds.")
    assert repaired(nlp, first) is first


def test_a_heading_without_any_clause_keeps_its_reading() -> None:
    nlp = pipeline()
    heading = nlp("Quarterly freight volumes by port and by commodity group, 2019 to 2024")
    assert repaired(nlp, heading) is heading
