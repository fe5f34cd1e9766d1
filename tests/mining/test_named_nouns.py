"""A common noun that a participle names ("the compound, known as Zelvarin, ...", "a
ferry called Aurora Star") is that name in the clause around it. Shown on the parse the
small model gives (built token by token) and through extraction, in domains no labeled
set uses (pharmaceutical licensing, ferries, plant breeding, rail)."""

from __future__ import annotations

from typing import Any

from mining.named_nouns import name_moves, names_given
from tests.mining.extraction_reading import read, triples
from tests.mining.test_parse_repairs import Row
from tests.mining.test_parse_repairs import _doc as _unlemmatised

# The lemmas the pipeline gives the verbs of these sentences.
LEMMAS = {"known": "know", "called": "call", "named": "name", "sold": "sell"}


def _doc(rows: list[Row]) -> Any:
    doc = _unlemmatised(rows)
    for tok in doc:
        tok.lemma_ = LEMMAS.get(tok.text, tok.text)
    return doc


# "The compound, known as Zelvarin, was licensed to Halvern Pharma."
KNOWN_AS: list[Row] = [
    ("The", 1, "det", "DET", "DT", ""),
    ("compound", 8, "nsubjpass", "NOUN", "NN", ""),
    (",", 1, "punct", "PUNCT", ",", ""),
    ("known", 1, "acl", "VERB", "VBN", ""),
    ("as", 3, "prep", "ADP", "IN", ""),
    ("Zelvarin", 4, "pobj", "PROPN", "NNP", "PERSON"),
    (",", 1, "punct", "PUNCT", ",", ""),
    ("was", 8, "auxpass", "AUX", "VBD", ""),
    ("licensed", 8, "ROOT", "VERB", "VBN", ""),
    ("to", 8, "prep", "ADP", "IN", ""),
    ("Halvern", 11, "compound", "PROPN", "NNP", "ORG"),
    ("Pharma", 9, "pobj", "PROPN", "NNP", "ORG"),
    (".", 8, "punct", "PUNCT", ".", ""),
]

# "Harlow Ferries runs a ferry called Aurora Star."
CALLED: list[Row] = [
    ("Harlow", 1, "compound", "PROPN", "NNP", ""),
    ("Ferries", 2, "nsubj", "PROPN", "NNP", ""),
    ("runs", 2, "ROOT", "VERB", "VBZ", ""),
    ("a", 4, "det", "DET", "DT", ""),
    ("ferry", 2, "dobj", "NOUN", "NN", ""),
    ("called", 4, "acl", "VERB", "VBN", ""),
    ("Aurora", 7, "compound", "PROPN", "NNP", ""),
    ("Star", 5, "oprd", "PROPN", "NNP", ""),
    (".", 2, "punct", "PUNCT", ".", ""),
]

# "The ferry, which Calmare Lines named Aurora Star, serves Brodick."
NAMED_IN_RELATIVE_CLAUSE: list[Row] = [
    ("The", 1, "det", "DET", "DT", ""),
    ("ferry", 10, "nsubj", "NOUN", "NN", ""),
    (",", 1, "punct", "PUNCT", ",", ""),
    ("which", 6, "dobj", "PRON", "WDT", ""),
    ("Calmare", 5, "compound", "PROPN", "NNP", "ORG"),
    ("Lines", 6, "nsubj", "PROPN", "NNP", "ORG"),
    ("named", 1, "relcl", "VERB", "VBD", ""),
    ("Aurora", 8, "compound", "PROPN", "NNP", ""),
    ("Star", 6, "oprd", "PROPN", "NNP", ""),
    (",", 1, "punct", "PUNCT", ",", ""),
    ("serves", 10, "ROOT", "VERB", "VBZ", ""),
    ("Brodick", 10, "dobj", "PROPN", "NNP", "GPE"),
    (".", 10, "punct", "PUNCT", ".", ""),
]


def test_a_name_known_as_hangs_on_the_noun_it_names() -> None:
    doc = _doc(KNOWN_AS)
    assert name_moves(doc) == {5: 1}
    fixed = names_given(doc)
    assert fixed[5].head.text == "compound" and fixed[5].dep_ == "appos"
    assert [t.text for t in fixed] == [t.text for t in doc]
    assert all(t.head.i == doc[t.i].head.i and t.dep_ == doc[t.i].dep_
               for t in fixed if t.i != 5)  # fmt: skip


def test_a_name_called_takes_its_compound_words_with_it() -> None:
    fixed = names_given(_doc(CALLED))
    assert fixed[7].head.text == "ferry" and fixed[7].dep_ == "appos"
    assert fixed[6].head.i == 7, "'Aurora' stays part of 'Aurora Star'"


def test_a_name_a_relative_clause_gives_stays_with_the_clause_that_gives_it() -> None:
    doc = _doc(NAMED_IN_RELATIVE_CLAUSE)
    assert name_moves(doc) == {}
    assert names_given(doc) is doc


def test_only_a_common_noun_is_renamed_and_only_by_a_naming_verb() -> None:
    # Two names for one entity are aliases (mining/aliases.py), not a renamed noun.
    between_names = [r if n != 1 else ("Halvern", 8, "nsubjpass", "PROPN", "NNP", "ORG")
                     for n, r in enumerate(KNOWN_AS)]  # fmt: skip
    assert name_moves(_doc(between_names)) == {}
    # "The compound, sold as Zelvarin, ...": selling is no naming.
    sold = [r if n != 3 else ("sold", 1, "acl", "VERB", "VBN", "")
            for n, r in enumerate(KNOWN_AS)]  # fmt: skip
    assert name_moves(_doc(sold)) == {}
    # "... known as a leader": no name is given.
    common = [r if n != 5 else ("leader", 4, "pobj", "NOUN", "NN", "")
              for n, r in enumerate(KNOWN_AS)]  # fmt: skip
    assert name_moves(_doc(common)) == {}


def test_what_the_sentence_says_of_a_named_noun_is_said_of_its_name() -> None:
    found = triples(read("A drought-tolerant sorghum variety known as Sahel Gold was "
                         "released by ICRISAT in Mali."))  # fmt: skip
    assert ("ICRISAT", "release", "Sahel Gold") in found
    licensed = triples(read("The compound, known as Zelvarin, was licensed to Halvern "
                            "Pharma in 2021."))  # fmt: skip
    assert ("Zelvarin", "be licensed to", "Halvern Pharma") in licensed


def test_a_party_named_by_a_participle_is_the_party_of_the_clause() -> None:
    found = read("Lindqvist Rail signed a contract with a start-up called Tramwise Systems "
                 "for its depots.")  # fmt: skip
    pairs = {(s.subject, s.object) for s in found if not s.negated}
    assert ("Lindqvist Rail", "Tramwise Systems") in pairs
    assert all(s.predicate != "be called" for s in found)


# "A vaccine developed in Basel and called Corvexa was approved."
COORDINATED: list[Row] = [
    ("A", 1, "det", "DET", "DT", ""),
    ("vaccine", 9, "nsubjpass", "NOUN", "NN", ""),
    ("developed", 1, "acl", "VERB", "VBN", ""),
    ("in", 2, "prep", "ADP", "IN", ""),
    ("Basel", 3, "pobj", "PROPN", "NNP", "GPE"),
    ("and", 2, "cc", "CCONJ", "CC", ""),
    ("called", 2, "conj", "VERB", "VBN", ""),
    ("Corvexa", 6, "oprd", "PROPN", "NNP", "PRODUCT"),
    ("was", 9, "auxpass", "AUX", "VBD", ""),
    ("approved", 9, "ROOT", "VERB", "VBN", ""),
    (".", 9, "punct", "PUNCT", ".", ""),
]


def _with(rows: list[Row], at: int, row: Row) -> list[Row]:
    return [row if n == at else r for n, r in enumerate(rows)]


def test_a_participle_coordinated_with_the_one_on_the_noun_names_it_too() -> None:
    assert name_moves(_doc(COORDINATED)) == {7: 1}
    # The same participles on no noun (a clause of their own) name nothing.
    verb_root = _with(COORDINATED, 2, ("developed", 2, "ROOT", "VERB", "VBN", ""))
    assert name_moves(_doc(verb_root)) == {}


def test_a_name_is_a_proper_noun_or_a_capitalised_word_the_recogniser_took_for_one() -> None:
    # "... a ferry called Aurora Star", its last word read as a common noun.
    untagged = _with(CALLED, 7, ("Star", 5, "oprd", "NOUN", "NN", ""))
    assert name_moves(_doc(untagged)) == {}
    recognised = _with(CALLED, 7, ("Star", 5, "oprd", "NOUN", "NN", "PRODUCT"))
    assert name_moves(_doc(recognised)) == {7: 4}
    lower = _with(CALLED, 7, ("star", 5, "oprd", "NOUN", "NN", "PRODUCT"))
    assert name_moves(_doc(lower)) == {}


def test_only_the_object_of_as_after_a_naming_participle_is_the_name_it_gives() -> None:
    # "The compound, known for Zelvarin, ...": "for" gives no name.
    known_for = _with(KNOWN_AS, 4, ("for", 3, "prep", "ADP", "IN", ""))
    assert name_moves(_doc(known_for)) == {}
    # "called" read as an adjective is no naming verb.
    adjective = _with(CALLED, 5, ("called", 4, "acl", "ADJ", "JJ", ""))
    assert name_moves(_doc(adjective)) == {}
