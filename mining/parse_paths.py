"""Paths through a dependency parse between two mentions: the sentence they are read in,
the shape of a relation, and the grammar tests (verb, passive, negation, modality) both
halves of the open relations use (mining/open_relations.py, open_relation_frames.py).

Every walk is bounded by the sentence's length and compares token indices (spaCy makes a
new Token object on every `.head`, so identity never ends a walk). The few closed-class
words are English function words, of no domain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
# Clauses that share the subject of the verb they hang off.
SAME_SUBJECT = frozenset({"xcomp", "conj", "advcl", "ccomp", "acl", "relcl", "pcomp"})
# A noun before a subjectless verb that the small parser attached as one of these is read
# as its subject (it often takes "Medilyte Solutions manufactures" for one noun phrase).
MISREAD_SUBJECT = frozenset({"compound", "npadvmod", "nmod", "dep", "amod"})
SIBLING_DEPS = frozenset({"conj", "appos", "compound", "cc", "punct"})
# Steps from a mention up to the subject slot that keep it the subject: "X and Y
# signed", "Electricite de France (EDF) took"; not "China's restrictions hit".
SUBJECT_CHAIN = frozenset({"conj", "appos", "compound", "flat"})
# Closed-class English, not of any domain.
MODAL_WORDS = frozenset({"may", "might", "could", "would", "should", "can"})
REL_PRONOUN_TAGS = frozenset({"WDT", "WP", "WP$"})
# What joins the parts of one word ("lithium-ion", "grain-oriented"): hyphen, en dash.
HYPHENS = frozenset({"-", "\u2013"})
REL_PRONOUNS = frozenset({"that", "which", "who", "whom", "whose"})  # "that" is often DT
NEGATORS = frozenset({"never", "no"})
# English verbs whose passive says what someone states, believes, plans or orders of the
# subject, not what the subject did ("is said to supply", "was expected to buy", "was
# ordered to pay"), as opposed to what was done with it ("was used to deliver", "was
# found to contain", "was forced to halt"). A closed class of the grammar, of no domain.
ATTITUDE_VERBS = frozenset(
    "say believe think report allege rumour rumor suppose expect estimate understand "
    "predict project forecast plan propose intend schedule set slate due consider "
    "ask order require urge invite encourage tell advise instruct direct".split()
)
# Verbs that report what someone said, and the words that make a clause a condition.
REPORTING_VERBS = frozenset("say announce confirm state tell declare".split())
CONDITIONS = frozenset({"if", "unless"})
BARE_WORDS = frozenset({"be", "have", "of", "in", "to", "with", "for", "at", "on"})
PLACE_PREPS = frozenset({"in", "at", "on"})
# Slots only a noun phrase fills.
NOMINAL_DEPS = frozenset(
    {"nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "compound", "poss"}
)
# Steps from a mention up to a subject noun that is no mention itself: "the flaw in X was
# assigned Y", "the plant of X lost Y": X is what the clause is about, and the noun joins
# the predicate ("flaw be assigned"). An owner too ("X's agreement will bring Y"), but
# not of an event or policy, which acts for itself ("China's restrictions hit Y").
SUBJECT_MODIFIER_CHAIN = frozenset({"pobj", "prep", "compound", "nmod"})
PREDICATE_POS = frozenset({"VERB", "AUX", "NOUN", "ADP", "ADJ", "PART", "PROPN", "ADV"})
# The slot of a relation between a speaker and the subject of what it said ("X warned
# that Y had ..."): weaker than any other relation the sentence states between the two.
REPORTED_SLOT = "ccomp"
MAX_PATH = 9  # tokens on the path between two mentions, both ends excluded
MAX_PREDICATE_WORDS = 5


@dataclass(frozen=True)
class OpenRelation:
    """A relation between mentions `subject` and `object` (indices into the spans given)."""

    subject: int
    object: int
    predicate: str  # lemmas, lower case: "halt production of"
    verb: str  # the lemma of the clause's verb, "" for a nominal frame
    slot: str  # the object's slot: dobj, attr, a preposition, appos
    negated: bool = False
    hedged: bool = False
    passive: bool = False


@dataclass
class ParsedSentence:
    doc: Any
    floor: int  # the sentence's first token
    ceiling: int  # one past its last
    owned: list[set[int]]  # tokens of each mention (its head raised through compounds)
    heads: list[int]
    all_owned: set[int] = field(default_factory=set)
    mention_at: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for n, toks in enumerate(self.owned):
            self.all_owned |= toks
            for t in toks:
                self.mention_at.setdefault(t, n)

    def chain(self, i: int) -> list[int]:
        """Token indices from i up to its sentence's root (inclusive)."""
        out = [i]
        for _ in range(self.ceiling - self.floor + 1):
            h = self.doc[out[-1]].head.i
            if h == out[-1] or not self.floor <= h < self.ceiling:
                break
            out.append(h)
        return out

    def path(self, x: int, y: int) -> tuple[list[int], int, list[int]] | None:
        """(x's side up to the common ancestor, the ancestor, y's side), or None."""
        up_x, up_y = self.chain(self.heads[x]), self.chain(self.heads[y])
        on_y = {t: n for n, t in enumerate(up_y)}
        for n, t in enumerate(up_x):
            if t in on_y:
                return up_x[:n], t, up_y[: on_y[t]]
        return None

    def words(self, tokens: list[int]) -> list[str]:
        """The predicate words among `tokens`: lemmas of verbs, nouns, prepositions,
        particles and predicative adjectives, no part of any mention."""
        out: list[str] = []
        for i in tokens:
            t = self.doc[i]
            if i in self.all_owned or t.pos_ not in PREDICATE_POS or t.is_punct:
                continue
            if t.pos_ == "ADV" and t.dep_ != "prt":
                continue
            if t.pos_ == "ADJ" and t.dep_ not in ("acomp", "amod", "advmod"):
                continue
            out.append(t.text if t.pos_ == "PROPN" else t.lemma_.lower())
        return out


def is_verb(tok: Any) -> bool:
    """A verb by its tag, unless the parse gave it a noun's slot: the small tagger reads
    nouns that are also verbs as verbs ("has its cover with X": cover/VERB/dobj)."""
    return tok.pos_ in ("VERB", "AUX") and tok.dep_ not in NOMINAL_DEPS


def is_relative_pronoun(tok: Any) -> bool:
    return tok.tag_ in REL_PRONOUN_TAGS or tok.lower_ in REL_PRONOUNS


def is_negated(tok: Any) -> bool:
    return any(c.dep_ == "neg" or c.lower_ in NEGATORS for c in tok.children)


def first_conjunct(tok: Any) -> Any:
    """The first of the coordination `tok` is in ("called" in "developed in Basel and
    called Y": "developed"), `tok` itself when it is in none. By index: spaCy makes a new
    Token on every `.head`."""
    first = tok
    for _ in range(len(tok.sent)):
        if first.dep_ != "conj" or first.head.i == first.i:
            break
        first = first.head
    return first


def _reported_future(verb: Any) -> bool:
    """'X said it would phase out Y': the "would" of a clause a past verb of saying
    reports is the speaker's "will", a commitment stated, not a guess; unless a condition
    hangs on it ("would close if ...")."""
    clause = first_conjunct(verb)
    head = clause.head
    conditional = any(
        c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in CONDITIONS for m in c.children)
        for c in verb.children
    )
    return (
        clause.dep_ == "ccomp"
        and head.tag_ == "VBD"
        and head.lemma_.lower() in REPORTING_VERBS
        and not conditional
    )


def _modal(verb: Any) -> bool:
    """A modal on `verb` that makes it a possibility, not a statement."""
    modals = {c.lower_ for c in verb.children if c.dep_ == "aux" and c.lower_ in MODAL_WORDS}
    if modals == {"would"} and _reported_future(verb):
        return False
    return bool(modals)


def is_hedged(tok: Any) -> bool:
    """A modal on the verb or on the verb it completes ("could supply", "would have to
    stop"), or a verb completing a passive of saying ("is expected to supply")."""
    if _modal(tok):
        return True
    if tok.dep_ != "xcomp":
        return False
    head = tok.head
    # A participle of the perfect ("has stopped writing") is no passive of saying.
    perfect = any(c.dep_ == "aux" and c.lemma_.lower() == "have" for c in head.children)
    said = head.tag_ == "VBN" and not perfect and head.lemma_.lower() in ATTITUDE_VERBS
    return said or _modal(head)


def is_passive(tok: Any) -> bool:
    """A passive clause, or a past participle modifying a noun ("a plant operated by X")."""
    if any(c.dep_ in ("nsubjpass", "auxpass") for c in tok.children):
        return True
    return (
        tok.tag_ == "VBN"
        and tok.dep_ in ("acl", "relcl")
        and not any(c.dep_ == "nsubj" for c in tok.children)
    )


def has_own_subject(tok: Any) -> bool:
    """Whether a clause has a subject of its own (a pronoun standing for one named
    before, or a relative pronoun, is not one)."""
    return any(
        c.dep_ in SUBJECT_DEPS and not is_relative_pronoun(c) and c.pos_ != "PRON"
        for c in tok.children
    )


def slot_of(s: ParsedSentence, side: list[int]) -> str:
    """The slot of the mention at the bottom of `side` under its verb: a dependency, or
    the preposition it is the object of."""
    if not side:
        return ""
    tok = s.doc[side[-1]]
    if tok.dep_ == "agent":
        return "agent"
    return tok.lower_ if tok.dep_ == "prep" else tok.dep_


def make_relation(
    subj: int, obj: int, words: list[str], verb: str, slot: str, *flags: bool
) -> OpenRelation | None:
    """A relation, unless its words say nothing ("be of"); a bare place preposition
    ("in", "at", "on") is kept: "Bugey on the Rhone"."""
    words = [w for w in words if w][:MAX_PREDICATE_WORDS]
    if not words or all(w in BARE_WORDS for w in words):
        if not (words and words[-1] in PLACE_PREPS):
            return None
    negated, hedged, passive = (*flags, False, False, False)[:3]
    return OpenRelation(subj, obj, " ".join(words), verb, slot, negated, hedged, passive)


