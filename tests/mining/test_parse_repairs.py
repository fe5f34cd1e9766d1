"""Misreadings of the small parser that the grammar itself corrects: an apposition hung on
a noun far back, a subject swallowed by the date before it, an object predicate taken
for a second object. Each repair is shown on the
parse the small model gives (built here token by token, so the test does not depend on
the model making the same mistake again) and through extraction; the domains are ones
no labeled set uses (shipping, rail, publishing, ratings of ferries)."""

from __future__ import annotations

from typing import Any

from spacy.tokens import Doc

from mining.apposition_anchor import anchor_moves, reanchored
from mining.nlp import Resolver, mentions_in
from mining.parsing import parse, pipeline
from mining.passage_selection import document_names
from mining.relation_parts import _slots
from mining.reparse import Part, plans
from mining.swallowed_subjects import subject_moves, subjects_restored
from tests.mining.extraction_reading import GAZ, read, triples

# Words written without a space before them.
GLUED = frozenset({",", ".", "'s"})
# (word, head index, dependency, coarse tag, fine tag, entity label)
Row = tuple[str, int, str, str, str, str]


def _doc(rows: list[Row]) -> Any:
    return Doc(
        pipeline().vocab,
        words=[r[0] for r in rows],
        spaces=[n + 1 < len(rows) and rows[n + 1][0] not in GLUED for n in range(len(rows))],
        heads=[r[1] for r in rows],
        deps=[r[2] for r in rows],
        pos=[r[3] for r in rows],
        tags=[r[4] for r in rows],
        ents=[f"B-{r[5]}" if r[5] else "O" for r in rows],
    )


# "the Maritime Authority said it was used to carry Marlin, the tanker owned by Okeanos."
# as the small model read a sentence of this shape: "tanker" hung on "Authority".
FAR_APPOSITION: list[Row] = [
    ("the", 2, "det", "DET", "DT", ""),
    ("Maritime", 2, "compound", "PROPN", "NNP", ""),
    ("Authority", 3, "nsubj", "PROPN", "NNP", "ORG"),
    ("said", 3, "ROOT", "VERB", "VBD", ""),
    ("it", 7, "nsubjpass", "PRON", "PRP", ""),
    ("was", 7, "auxpass", "AUX", "VBD", ""),
    ("used", 3, "ccomp", "VERB", "VBN", ""),
    ("to", 8, "aux", "PART", "TO", ""),
    ("carry", 7, "xcomp", "VERB", "VB", ""),
    ("Marlin", 8, "dobj", "PROPN", "NNP", ""),
    (",", 3, "punct", "PUNCT", ",", ""),
    ("the", 12, "det", "DET", "DT", ""),
    ("tanker", 2, "appos", "NOUN", "NN", ""),
    ("owned", 12, "acl", "VERB", "VBN", ""),
    ("by", 13, "agent", "ADP", "IN", ""),
    ("Okeanos", 14, "pobj", "PROPN", "NNP", "ORG"),
    (".", 3, "punct", "PUNCT", ".", ""),
]


def test_an_apposition_hung_far_back_moves_to_the_noun_before_its_comma() -> None:
    doc = _doc(FAR_APPOSITION)
    assert anchor_moves(doc) == {12: 9}
    fixed = reanchored(doc)
    assert fixed[12].head.text == "Marlin" and fixed[12].dep_ == "appos"
    assert [t.text for t in fixed] == [t.text for t in doc]
    assert all(t.head.i == doc[t.i].head.i for t in fixed if t.i != 12)


def test_an_apposition_of_a_phrase_that_reaches_its_comma_stays() -> None:
    # "Kallavesi Voima in Kuopio, the utility": "Kuopio" is inside Voima's phrase.
    rows: list[Row] = [
        ("Voima", 5, "nsubj", "PROPN", "NNP", "ORG"),
        ("in", 0, "prep", "ADP", "IN", ""),
        ("Kuopio", 1, "pobj", "PROPN", "NNP", "GPE"),
        (",", 0, "punct", "PUNCT", ",", ""),
        ("utility", 0, "appos", "NOUN", "NN", ""),
        ("signed", 5, "ROOT", "VERB", "VBD", ""),
        (".", 5, "punct", "PUNCT", ".", ""),
    ]
    doc = _doc(rows)
    assert anchor_moves(doc) == {}
    assert reanchored(doc) is doc


# "On Friday Fitch's downgraded the bonds of Harbour Rail." as the small model read a
# sentence of this shape: "Fitch" the object of "On", the verb without a subject.
SWALLOWED_SUBJECT: list[Row] = [
    ("On", 4, "prep", "ADP", "IN", ""),
    ("Friday", 2, "compound", "PROPN", "NNP", "DATE"),
    ("Fitch", 0, "pobj", "PROPN", "NNP", "ORG"),
    ("'s", 2, "case", "PART", "POS", "ORG"),
    ("downgraded", 4, "ROOT", "VERB", "VBD", ""),
    ("the", 6, "det", "DET", "DT", ""),
    ("bonds", 4, "dobj", "NOUN", "NNS", ""),
    ("of", 6, "prep", "ADP", "IN", ""),
    ("Harbour", 9, "compound", "PROPN", "NNP", "ORG"),
    ("Rail", 7, "pobj", "PROPN", "NNP", "ORG"),
    (".", 4, "punct", "PUNCT", ".", ""),
]


def test_a_name_swallowed_by_a_leading_date_is_the_subject_again() -> None:
    doc = _doc(SWALLOWED_SUBJECT)
    assert subject_moves(doc) == {1: (0, "pobj"), 2: (4, "nsubj")}
    fixed = subjects_restored(doc)
    assert fixed[2].dep_ == "nsubj" and fixed[2].head.text == "downgraded"
    assert fixed[1].dep_ == "pobj" and fixed[1].head.text == "On"


def test_a_day_and_month_go_back_to_the_preposition_together() -> None:
    rows: list[Row] = [
        ("On", 5, "prep", "ADP", "IN", ""),
        ("3", 2, "nummod", "NUM", "CD", ""),
        ("March", 4, "compound", "PROPN", "NNP", ""),
        ("Ilse", 4, "compound", "PROPN", "NNP", "PERSON"),
        ("Brandt", 0, "pobj", "PROPN", "NNP", "PERSON"),
        ("opened", 5, "ROOT", "VERB", "VBD", ""),
        ("a", 7, "det", "DET", "DT", ""),
        ("depot", 5, "dobj", "NOUN", "NN", ""),
        (".", 5, "punct", "PUNCT", ".", ""),
    ]
    moves = subject_moves(_doc(rows))
    assert moves == {2: (0, "pobj"), 1: (2, "nummod"), 4: (5, "nsubj")}


def test_a_preposition_given_two_objects_gives_the_second_to_its_verb() -> None:
    # "On the east quay the Harwich crane, of older design, is run by Baltic Tug."
    rows: list[Row] = [
        ("On", 11, "prep", "ADP", "IN", ""),
        ("the", 3, "det", "DET", "DT", ""),
        ("east", 3, "amod", "ADJ", "JJ", ""),
        ("quay", 0, "pobj", "NOUN", "NN", ""),
        ("the", 6, "det", "DET", "DT", ""),
        ("Harwich", 6, "compound", "PROPN", "NNP", "GPE"),
        ("crane", 0, "pobj", "NOUN", "NN", ""),
        (",", 6, "punct", "PUNCT", ",", ""),
        ("of", 6, "prep", "ADP", "IN", ""),
        ("design", 8, "pobj", "NOUN", "NN", ""),
        ("is", 11, "auxpass", "AUX", "VBZ", ""),
        ("run", 11, "ROOT", "VERB", "VBN", ""),
        ("by", 11, "agent", "ADP", "IN", ""),
        ("Baltic", 14, "compound", "PROPN", "NNP", "ORG"),
        ("Tug", 12, "pobj", "PROPN", "NNP", "ORG"),
        (".", 11, "punct", "PUNCT", ".", ""),
    ]
    assert subject_moves(_doc(rows)) == {6: (11, "nsubjpass")}


def test_a_verb_with_a_subject_or_a_phrase_that_is_no_date_is_left_alone() -> None:
    with_subject = [*SWALLOWED_SUBJECT]
    with_subject[6] = ("bonds", 4, "nsubj", "NOUN", "NNS", "")
    assert subject_moves(_doc(with_subject)) == {}
    not_a_date = [*SWALLOWED_SUBJECT]
    not_a_date[1] = ("Behalf", 2, "compound", "PROPN", "NNP", "")
    assert subject_moves(_doc(not_a_date)) == {}


def test_a_name_with_its_own_possessive_keeps_it_when_nothing_follows_to_possess() -> None:
    found = triples(read("On Monday Lloyd's raised the premium of Aurora Ferries to a record."))
    assert ("Lloyd's", "raise premium of", "Aurora Ferries") in found
    names = {s.subject for s in read("Lloyd's underwriters raised the premium of Aurora Ferries.")}
    assert "Lloyd's" not in names


def test_a_month_is_no_part_of_the_name_after_it() -> None:
    text = "On 3 March Ilse Brandt, the transport minister, opened a Deutsche Bahn depot."
    names = {m.name for m in mentions_in(parse(text), GAZ, Resolver(GAZ))}
    assert "Ilse Brandt" in names
    assert not any("March" in name for name in names)


def test_a_possessive_between_two_names_relates_them() -> None:
    found = triples(read("Portugal's Navigator Company cut the price of its office paper."))
    assert ("Navigator Company", "of", "Portugal") in found
    # Not a common noun standing for a name ("the project's release").
    assert not any(p == "of" for _, p, _ in triples(read(
        "Debian Testing, the project's rolling release, shipped Harbour Reader 5.6."
    )))  # fmt: skip


def test_what_was_used_to_do_something_did_it_and_what_is_said_to_is_hedged() -> None:
    used = read("The Halden Shuttle was used to carry Nordic Pulp cargo to Tromso.")
    assert used and not any(s.hedged for s in used if s.subject == "Halden Shuttle")
    said = read("Halden Shipping is expected to buy Nordic Pulp.")
    assert said and all(s.hedged for s in said)


def test_a_document_name_starts_after_the_date_before_it() -> None:
    text = (
        "On Friday Fitch Ratings cut Harbour Rail. On 26 February Agnes Varga spoke."
        " Theresa May met Olaf Scholz."
    )
    names = document_names(text + " Willie Mays Jr sold Friday's Harbour Ferries.")
    assert {"Fitch Ratings", "Agnes Varga", "Theresa May", "Olaf Scholz"} <= set(names)
    # Only a possessive "'s" comes off before the test: "Mays" is no "May".
    assert "Willie Mays Jr" in names and "Harbour Ferries" in names
    assert not any(n.startswith(("On", "Friday", "February")) for n in names)


def test_a_question_word_opening_a_headline_is_no_part_of_a_name() -> None:
    text = "Which Harbour Ferries cut sailings after the strike at Baltic Tug Services"
    names = {m.name for m in mentions_in(parse(text), GAZ, Resolver(GAZ))}
    assert not any(name.startswith("Which") for name in names)
    assert "Which Harbour Ferries" not in document_names(text + ". Which Harbour Ferries sailed.")


def test_the_name_of_a_cleft_sentence_is_what_the_next_one_speaks_of() -> None:
    text = (
        "It was Halden Shipping, not Baltic Tug Services, that first reported the leak."
        " The company later sued Aurora Ferries."
    )
    found = triples(read(text))
    assert ("Halden Shipping", "sue", "Aurora Ferries") in found
    assert not any(s == "Baltic Tug Services" for s, _, _ in found)


def test_a_sentence_opened_by_proper_nouns_no_entity_covers_can_be_read_with_it() -> None:
    # "NTSA, the Norwegian ... Authority, advised ..." read with no entity on "NTSA".
    rows: list[Row] = [
        ("NTSA", 0, "ROOT", "PROPN", "NNP", ""),
        (",", 0, "punct", "PUNCT", ",", ""),
        ("the", 4, "det", "DET", "DT", ""),
        ("Norwegian", 4, "compound", "PROPN", "NNP", ""),
        ("Authority", 0, "conj", "PROPN", "NNP", ""),
        (",", 0, "punct", "PUNCT", ",", ""),
        ("advised", 7, "amod", "VERB", "VBN", ""),
        ("crews", 0, "appos", "NOUN", "NNS", ""),
        ("to", 9, "aux", "PART", "TO", ""),
        ("leave", 0, "xcomp", "VERB", "VB", ""),
        (".", 0, "punct", "PUNCT", ".", ""),
    ]
    doc = _doc(rows)
    sent = next(iter(doc.sents))
    assert [Part(0, 1, "name")] in plans(sent)


def test_no_member_of_a_group_is_related_to_the_pronoun_that_stands_for_the_group() -> None:
    text = (
        "Aldmoor Rail said it had found the faulty relays in two depots, and Harbour"
        " Trams and Kessel Metro told reporters they had identified Ostrava Relays as"
        " the supplier."
    )
    pairs = {frozenset((s, o)) for s, _, o in triples(read(text))}
    assert frozenset(("Harbour Trams", "Kessel Metro")) not in pairs


def _with(rows: list[Row], at: int, row: Row) -> list[Row]:
    return [*rows[:at], row, *rows[at + 1 :]]


def _shifted(rows: list[Row], by: int, from_head: int = 0) -> list[Row]:
    """`rows` with every head at or after `from_head` moved `by` places."""
    return [(w, h + by if h >= from_head else h, d, p, t, e) for w, h, d, p, t, e in rows]


def test_an_apposition_moves_to_the_head_of_a_name_of_several_words() -> None:
    # "... to carry Marlin Blue, the tanker ...": the tanker is Marlin Blue, headed by "Blue".
    rows = [*FAR_APPOSITION[:9], ("Marlin", 10, "compound", "PROPN", "NNP", ""),
            ("Blue", 8, "dobj", "PROPN", "NNP", "")]  # fmt: skip
    rows += _shifted(FAR_APPOSITION[10:], 1, 10)
    rows = [(w, 2 if w == "tanker" else h, d, p, t, e) for w, h, d, p, t, e in rows]
    assert anchor_moves(_doc(rows)) == {13: 10}


def test_an_apposition_without_a_comma_or_after_no_noun_stays() -> None:
    no_comma = _with(FAR_APPOSITION, 10, ("and", 3, "cc", "CCONJ", "CC", ""))
    assert anchor_moves(_doc(no_comma)) == {}
    after_a_verb = _with(FAR_APPOSITION, 9, ("fast", 8, "advmod", "ADV", "RB", ""))
    assert anchor_moves(_doc(after_a_verb)) == {}
    # An apposition that comes before its head is another construction.
    later_head = _with(FAR_APPOSITION, 12, ("tanker", 15, "appos", "NOUN", "NN", ""))
    assert anchor_moves(_doc(later_head)) == {}


def test_a_swallowed_subject_of_a_passive_is_its_passive_subject() -> None:
    rows = [*SWALLOWED_SUBJECT[:4], ("was", 5, "auxpass", "AUX", "VBD", ""),
            ("fined", 5, "ROOT", "VERB", "VBN", ""), ("by", 5, "agent", "ADP", "IN", ""),
            ("Harbour", 8, "compound", "PROPN", "NNP", "ORG"),
            ("Rail", 6, "pobj", "PROPN", "NNP", "ORG"), (".", 5, "punct", "PUNCT", ".", "")]
    rows[0] = ("On", 5, "prep", "ADP", "IN", "")
    assert subject_moves(_doc(rows)) == {1: (0, "pobj"), 2: (5, "nsubjpass")}


def test_an_auxiliary_may_stand_between_the_name_and_its_verb_but_no_other_word() -> None:
    rows = [*SWALLOWED_SUBJECT[:4], ("has", 5, "aux", "AUX", "VBZ", ""),
            ("downgraded", 5, "ROOT", "VERB", "VBN", ""), ("the", 7, "det", "DET", "DT", ""),
            ("bonds", 5, "dobj", "NOUN", "NNS", ""), (".", 5, "punct", "PUNCT", ".", "")]
    rows[0] = ("On", 5, "prep", "ADP", "IN", "")
    assert subject_moves(_doc(rows)) == {1: (0, "pobj"), 2: (5, "nsubj")}
    adverb = _with(rows, 4, ("quietly", 5, "advmod", "ADV", "RB", ""))
    assert subject_moves(_doc(adverb)) == {}


def test_only_a_date_of_a_month_or_day_name_gives_a_name_back() -> None:
    # "On 4 Fitch's downgraded ...": a number alone is no date.
    number = _with(SWALLOWED_SUBJECT, 1, ("4", 2, "nummod", "NUM", "CD", ""))
    assert subject_moves(_doc(number)) == {}
    # "On Friday Behalf Fitch's ...": a word that is no part of a name stops it.
    common = [*SWALLOWED_SUBJECT[:2], ("news", 3, "compound", "NOUN", "NN", ""),
              *_shifted(SWALLOWED_SUBJECT[2:], 1, 2)]
    common[0] = ("On", 5, "prep", "ADP", "IN", "")
    assert subject_moves(_doc(common)) == {}


def test_a_short_sentence_or_one_not_opened_by_a_preposition_is_left_alone() -> None:
    short: list[Row] = [
        ("On", 2, "prep", "ADP", "IN", ""),
        ("Friday", 0, "pobj", "PROPN", "NNP", "DATE"),
        ("rained", 2, "ROOT", "VERB", "VBD", ""),
    ]
    assert subject_moves(_doc(short)) == {}
    no_prep = _with(SWALLOWED_SUBJECT, 0, ("Since", 4, "mark", "SCONJ", "IN", ""))
    assert subject_moves(_doc(no_prep)) == {}
    # The next sentence is still read after one that is left alone.
    both = _doc([*no_prep, *_shifted(SWALLOWED_SUBJECT, len(no_prep))])
    assert subject_moves(both) == {12: (11, "pobj"), 13: (15, "nsubj")}


# "The Tarvos port board has made imports of ballast subject to permits." as the small
# model read the same shape: "subject" an object predicate beside the object "imports".
MADE_SUBJECT_TO: list[Row] = [
    ("The", 3, "det", "DET", "DT", ""),
    ("Tarvos", 3, "compound", "PROPN", "NNP", "GPE"),
    ("port", 3, "compound", "NOUN", "NN", ""),
    ("board", 5, "nsubj", "NOUN", "NN", ""),
    ("has", 5, "aux", "AUX", "VBZ", ""),
    ("made", 5, "ROOT", "VERB", "VBN", ""),
    ("imports", 5, "dobj", "NOUN", "NNS", ""),
    ("of", 6, "prep", "ADP", "IN", ""),
    ("ballast", 7, "pobj", "NOUN", "NN", ""),
    ("subject", 5, "oprd", "NOUN", "NN", ""),
    ("to", 9, "prep", "ADP", "IN", ""),
    ("permits", 10, "pobj", "NOUN", "NNS", ""),
    (".", 5, "punct", "PUNCT", ".", ""),
]


def test_what_an_object_was_made_into_is_no_second_object_of_the_verb() -> None:
    doc = _doc(MADE_SUBJECT_TO)
    objects = {(slot, tok.text) for slot, tok in _slots(doc[5])}
    assert ("dobj", "imports") in objects
    assert ("dobj", "subject") not in objects  # not "the board makes (produces) subject"


def test_an_object_predicate_with_no_object_beside_it_is_the_verb_s_object() -> None:
    # "Harbour Rail was named operator of the year.": no object but the predicate.
    rows: list[Row] = [
        ("Harbour", 1, "compound", "PROPN", "NNP", "ORG"),
        ("Rail", 3, "nsubjpass", "PROPN", "NNP", "ORG"),
        ("was", 3, "auxpass", "AUX", "VBD", ""),
        ("named", 3, "ROOT", "VERB", "VBN", ""),
        ("operator", 3, "oprd", "NOUN", "NN", ""),
        (".", 3, "punct", "PUNCT", ".", ""),
    ]
    assert ("dobj", "operator") in {(slot, tok.text) for slot, tok in _slots(_doc(rows)[3])}
