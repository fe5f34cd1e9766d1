"""What "the utility", "the plant" or "the company" refers back to, read from the text.

A text introduces an entity with a word for what it is ("Kallavesi Voima, the Finnish
utility"; "its Beznau nuclear station"; "Laurel Ridge Pipeline Company") and later calls
it by that word alone ("the utility", "the station", "the company"). So each mention
is described by the nouns the text set beside it: its apposition's head, the noun it is
compounded into, a predicate noun ("X is a utility"), the last word of its name. A bare
definite noun ("the" and nothing else) whose lemma describes an entity named before it
refers to the latest such entity. No noun of any domain is listed: the text says them.
Pure over a spaCy parse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mining.mentions import Mention
from mining.name_runs import apposed
from mining.named_nouns import clause_name

DEFINITE = frozenset({"the", "this", "that"})
# Words a bare definite noun may have besides its determiner and still point back.
_BARE_CHILD_DEPS = frozenset({"det", "punct"})
# Words that describe a noun without naming another thing: "the security company".
_DESCRIBING_DEPS = frozenset({"compound", "amod"})


def _descriptions(doc: Any, m: Mention) -> set[str]:
    """Lemmas of the nouns the text uses to say what mention `m` is."""
    span = doc.char_span(m.start, m.end, alignment_mode="expand")
    if span is None:
        return set()
    root = span.root
    words = {m.name.split()[-1].lower()} if m.name.split() else set()
    beside = apposed(root)
    if root.dep_ in ("compound", "amod") and root.head.i > root.i:
        beside.append(root.head)
    if root.dep_ in ("nsubj", "nsubjpass"):
        beside += [c for c in root.head.children if c.dep_ == "attr"]
    words |= {t.lemma_.lower() for t in beside if t.pos_ == "NOUN"}
    return words


def bare_definite(tok: Any, modified: bool = False) -> bool:
    """'the utility': a definite determiner and nothing else on a common noun (a phrase
    the parser hung on it, "insured the operator against the loss", aside; "the operator
    of X" is another one)."""
    return (
        tok.pos_ == "NOUN"
        and any(c.dep_ == "det" and c.lower_ in DEFINITE for c in tok.children)
        and all(c.dep_ in _BARE_CHILD_DEPS or (c.dep_ == "prep" and c.lower_ != "of")
                or (modified and c.dep_ in _DESCRIBING_DEPS) for c in tok.children)  # fmt: skip
    )


def cleft_focus(tok: Any) -> bool:
    """'It was FireEye, not SolarWinds, that raised the alarm': the name a cleft sentence
    puts after "It was" is what the sentence is about, as its subject would be."""
    head = tok.head
    return (
        tok.dep_ == "attr"
        and head.lemma_ == "be"
        and any(c.dep_ == "nsubj" and c.lower_ == "it" for c in head.children)
    )


def sentence_subject(tok: Any) -> bool:
    """Whether `tok` is what its sentence is about: its subject, or a cleft's focus."""
    return tok.dep_ in ("nsubj", "nsubjpass") or cleft_focus(tok)


# Pronouns that, opening a sentence, carry on what the sentence before was about.
TOPIC_PRONOUNS = frozenset({"it", "its"})
_SUBJECT_DEPS = ("nsubj", "nsubjpass")


def main_subject(sent: Any) -> Any | None:
    """What a sentence is about: its main clause's subject, a cleft's focus ("It was
    FireEye that ..."), or the name a relative clause gives a subject noun ("That
    malware, which CrowdStrike named SUNSPOT, did one thing")."""
    root = sent.root
    focus = [c for c in root.children if cleft_focus(c)]
    subject = (
        focus[0] if focus else next((c for c in root.children if c.dep_ in _SUBJECT_DEPS), None)
    )
    if subject is None or subject.pos_ == "PRON":
        return None
    named = clause_name(subject) if subject.pos_ == "NOUN" else None
    return named if named is not None else subject


def continued_topic(tok: Any) -> Any | None:
    """The subject of the sentence before, when `tok` is "it" or "its" opening the subject
    of its own sentence's main clause: "Beznau has no cooling tower. Its two units pump
    water from the Aare" (what the text goes on about, of whatever kind: a plant, a drug,
    a piece of malware). Not an "it" of the verb "be" ("It is likely that ...")."""
    subject = tok.head if tok.dep_ == "poss" else tok
    clause = subject.head
    if (
        tok.lower_ not in TOPIC_PRONOUNS
        or subject.dep_ not in _SUBJECT_DEPS
        or clause.dep_ != "ROOT"
        or clause.lemma_ == "be"
        or any(t.ent_type_ for t in tok.sent if t.i < tok.i)
        or tok.sent.start == 0
    ):
        return None
    return main_subject(tok.doc[tok.sent.start - 1].sent)


# Where a pronoun inside a noun phrase stops looking for the phrase it is part of.
_CLAUSE_POS = frozenset({"VERB", "AUX"})
# How a noun hangs on the head of its phrase: not a phrase of its own.
_PHRASE_PART_DEPS = frozenset({"compound", "amod", "nmod", "poss", "npadvmod"})


def apposed_it(tok: Any) -> Any | None:
    """The noun an "it" inside an apposition stands for: "Ferries are built from marine
    aluminium, and Nordvik Yard, the only builder of it in Norway, ...": a phrase that
    says what a name is cannot speak of that name, so "it" is the nearest singular noun
    phrase before the name (marine aluminium), in the same sentence."""
    if tok.lower_ != "it" or tok.pos_ != "PRON":
        return None
    t = tok
    for _ in range(len(tok.sent)):
        if t.dep_ == "appos" or t.head.i == t.i or t.pos_ in _CLAUSE_POS:
            break
        t = t.head
    if t.dep_ != "appos" or t.head.i > t.i:
        return None
    for at in range(t.head.left_edge.i - 1, tok.sent.start - 1, -1):
        word = tok.doc[at]
        if (word.pos_ in ("NOUN", "PROPN") and word.dep_ not in _PHRASE_PART_DEPS
                and word.tag_ in ("NN", "NNP") and word.ent_type_ != "PERSON"):  # fmt: skip
            return word
    return None


def _sets_the_scene(tok: Any) -> bool:
    """Whether `tok` is the object of the preposition that opens its sentence: a phrase
    that sets the time or place of what follows, not a party to it."""
    prep = tok.head
    if tok.dep_ != "pobj" or prep.dep_ != "prep":
        return False
    first = next((t for t in tok.sent if not t.is_space), None)
    return first is not None and first.i == prep.i


def _clause_verb(tok: Any) -> int:
    """The index of the verb whose clause `tok` is in (the sentence root if none)."""
    t = tok
    for _ in range(len(tok.sent)):
        if t.pos_ in ("VERB", "AUX") or t.head.i == t.i:
            return t.i
        t = t.head
    return t.i


def referent(
    tok: Any, named: Sequence[Mention], org_words: frozenset[str] = frozenset()
) -> Mention | None:
    """The latest mention before `tok` that the text described by `tok`'s noun, when
    `tok` is a bare definite noun; else, for a noun that names organisations in general
    (`org_words`: "the company", "the security company"), the organisation the text was
    just talking about. `named`: the mentions of the text so far, in order."""
    if tok.dep_ == "appos":
        return None  # "Kallavesi Voima, the Finnish utility": it says what its head is
    lemma = tok.lemma_.lower()
    general = lemma in org_words
    bare = bare_definite(tok)
    if not bare and not (general and bare_definite(tok, modified=True)):
        return None
    if not bare and _sets_the_scene(tok):
        return None  # "On the southern bank the X station is run by Y": a place, no party
    own_clause = _clause_verb(tok)
    earlier: list[tuple[Mention, Any]] = []
    for m in named:
        span = tok.doc.char_span(m.start, m.end, alignment_mode="expand")
        # "X signed with the company": not X itself.
        if m.end <= tok.idx and span is not None and _clause_verb(span.root) != own_clause:
            earlier.append((m, span.root))
    # Nothing is kept on the (shared, cached) parse: descriptions are read anew.
    if bare:
        for m, _ in reversed(earlier):
            if lemma in _descriptions(tok.doc, m):
                return m
    if not general:
        return None
    # "the company": the organisation the text was just talking about: of the nearest
    # sentence naming any, its subject, else the last one ("The contract went to Venture
    # Global. Kaisei Power signed with the company").
    organisations = [(m, root) for m, root in earlier if m.family == "organization"]
    if not organisations:
        return None
    nearest = organisations[-1][1].sent.start
    same = [(m, root) for m, root in organisations if root.sent.start == nearest]
    subjects = [m for m, root in same if sentence_subject(root)]
    return subjects[-1] if subjects else same[-1][0]
