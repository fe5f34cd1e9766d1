"""Open relations from a dependency parse: any clause or noun phrase that joins two mentions.

Pure over a parsed spaCy sentence and the token spans of its mentions. For every pair of
mentions the dependency path between them is read, and it yields a relation when it is
- a clause: a subject, a verb and an object or prepositional slot, also through
  infinitives, relative clauses, participles and clauses that share the subject ("agreed
  to supply X", "said it would stop buying from X"); a passive's agent is its subject
  ("X was fined by Y": Y fined X);
- a phrase attached to a mention: an apposition ("X, the export arm of Y"), a relative
  clause or participle on it ("X, which owns Y", "X, the contractor that Y hired",
  "X, a producer based in Y"), a place after it ("Bugey on the Rhone");
- a nominal frame: a possessive with a prepositional object ("X's agreement with Y") or
  with a name compounded into the same noun ("its Kansanshi mine").
The predicate is the path's own words, lemmatised ("halt production of", "sign agreement
with"); negation and modality are flags. No verb or noun of any domain is listed here:
the grammar decides (the few closed-class words below are English function words).

Every walk over the tree is bounded by the sentence's length and compares token indices
(spaCy makes a new Token object on every `.head`, so identity never ends a walk).
Coordinated mentions ("A, B and C") are siblings, never related to each other; a third
mention on the path stands between the two unless it is coordinated or apposed to one.
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
REL_PRONOUNS = frozenset({"that", "which", "who", "whom", "whose"})  # "that" is often DT
NEGATORS = frozenset({"never", "no"})
BARE_WORDS = frozenset({"be", "have", "of", "in", "to", "with", "for", "at", "on"})
PLACE_PREPS = frozenset({"in", "at", "on"})
# Slots only a noun phrase fills.
NOMINAL_DEPS = frozenset(
    {"nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "compound", "poss"}
)
# Steps from a mention up to a subject noun that is no mention itself: "the flaw in X was
# assigned Y", "the plant of X lost Y": X is what the clause is about, and the noun joins
# the predicate ("flaw be assigned"). Not an owner ("China's restrictions hit Y"): what
# a possessive's noun does is the noun's own act (a policy, an event).
SUBJECT_MODIFIER_CHAIN = frozenset({"pobj", "prep", "compound", "nmod"})
PREDICATE_POS = frozenset({"VERB", "AUX", "NOUN", "ADP", "ADJ", "PART", "PROPN", "ADV"})
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
class _Sentence:
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


def _is_verb(tok: Any) -> bool:
    """A verb by its tag, unless the parse gave it a noun's slot: the small tagger reads
    nouns that are also verbs as verbs ("has its cover with X": cover/VERB/dobj)."""
    return tok.pos_ in ("VERB", "AUX") and tok.dep_ not in NOMINAL_DEPS


def _relative_pronoun(tok: Any) -> bool:
    return tok.tag_ in REL_PRONOUN_TAGS or tok.lower_ in REL_PRONOUNS


def _negated(tok: Any) -> bool:
    return any(c.dep_ == "neg" or c.lower_ in NEGATORS for c in tok.children)


def _hedged(tok: Any) -> bool:
    """A modal on the verb or on the verb it completes ("could supply", "would have to
    stop"), or a verb completing a passive of saying ("is expected to supply")."""
    if any(c.dep_ == "aux" and c.lower_ in MODAL_WORDS for c in tok.children):
        return True
    if tok.dep_ != "xcomp":
        return False
    head = tok.head
    return head.tag_ == "VBN" or any(
        c.dep_ == "aux" and c.lower_ in MODAL_WORDS for c in head.children
    )


def _passive(tok: Any) -> bool:
    """A passive clause, or a past participle modifying a noun ("a plant operated by X")."""
    if any(c.dep_ in ("nsubjpass", "auxpass") for c in tok.children):
        return True
    return (
        tok.tag_ == "VBN"
        and tok.dep_ in ("acl", "relcl")
        and not any(c.dep_ == "nsubj" for c in tok.children)
    )


def _own_subject(tok: Any) -> bool:
    """Whether a clause has a subject of its own (a pronoun standing for one named
    before, or a relative pronoun, is not one)."""
    return any(
        c.dep_ in SUBJECT_DEPS and not _relative_pronoun(c) and c.pos_ != "PRON"
        for c in tok.children
    )


def _role(s: _Sentence, child: int, verb: int) -> str:
    """How `child` hangs off `verb`, with the misread subject of a small parser repaired."""
    dep = s.doc[child].dep_
    if dep in MISREAD_SUBJECT and child < verb and not any(
        c.dep_ in SUBJECT_DEPS for c in s.doc[verb].children
    ):
        return "nsubj"
    return dep


def _slot(s: _Sentence, side: list[int]) -> str:
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


def _coordinated(s: _Sentence, z: int) -> set[int]:
    """The mentions a mention is coordinated or apposed with, up its conj/appos chain
    ("Lufthansa" in "Qantas, Emirates and Lufthansa": Emirates and Qantas)."""
    out: set[int] = set()
    t = s.heads[z]
    for _ in range(s.ceiling - s.floor):
        tok = s.doc[t]
        if tok.dep_ not in ("conj", "appos") or tok.head.i == t:
            break
        t = tok.head.i
        if t in s.mention_at:
            out.add(s.mention_at[t])
    return out


def _coordinated_with(s: _Sentence, other: int, x: int, y: int) -> bool:
    """Whether `other` stands in a coordination or apposition with one of the pair."""
    return other in _coordinated(s, x) | _coordinated(s, y) or bool(
        {x, y} & _coordinated(s, other)
    )


def _pair(s: _Sentence, x: int, y: int) -> OpenRelation | None:
    found = s.path(x, y)
    if found is None:
        return None
    up_x, top, up_y = found
    ends = s.owned[x] | s.owned[y]
    inner = [t for t in [*up_x[1:], top, *up_y[1:]] if t not in ends]
    if len(inner) > MAX_PATH:
        return None
    deps = [s.doc[t].dep_ for t in up_x + up_y]
    if (not inner or all(d in SIBLING_DEPS for d in deps)) and "appos" not in deps:
        return None  # "A, B and C": siblings
    for t in inner:
        other = s.mention_at.get(t)
        if other is not None and other not in (x, y):
            if not _coordinated_with(s, other, x, y):
                return None
    if top in ends:
        return _attached(s, x, y, up_x, up_y, top)
    if _is_verb(s.doc[top]):
        return _clause(s, x, y, up_x, up_y, top)
    return _nominal(s, x, y, up_x, up_y, top)


def _clause(
    s: _Sentence, x: int, y: int, up_x: list[int], up_y: list[int], top: int
) -> OpenRelation | None:
    """Both mentions hang off the verb `top`, the object possibly in an inner clause."""
    role_x, role_y = _role(s, up_x[-1], top), _role(s, up_y[-1], top)
    if (role_x in SUBJECT_DEPS) == (role_y in SUBJECT_DEPS):
        return None
    subj, obj, up_s, up_o = (x, y, up_x, up_y) if role_x in SUBJECT_DEPS else (y, x, up_y, up_x)
    if any(_is_verb(s.doc[t]) for t in up_s[1:]):
        return None
    owner_noun = _subject_noun(s, up_s)
    if owner_noun is None and any(s.doc[t].dep_ not in SUBJECT_CHAIN for t in up_s[:-1]):
        return None  # an owner or modifier inside the subject phrase is not its subject
    inner_verbs = [t for t in up_o[1:] if _is_verb(s.doc[t]) and t not in s.all_owned]
    # "agreed to supply X", "said it would stop buying from X": the same subject; an
    # inner clause with a subject of its own states another fact.
    for v in inner_verbs:
        if s.doc[v].dep_ not in SAME_SUBJECT or _own_subject(s.doc[v]):
            return None
    verb = inner_verbs[0] if inner_verbs else top  # the innermost verb names the action
    below = up_o[: up_o.index(verb)] if verb in up_o else up_o
    vt = s.doc[verb]
    particles = [c.i for c in vt.children if c.dep_ == "prt"]
    words = s.words([verb, *particles, *reversed(below[1:])])
    negated = _negated(s.doc[top]) or _negated(vt)
    hedged = _hedged(s.doc[top]) or _hedged(vt)
    slot = _slot(s, below)
    lemma = vt.lemma_.lower()
    if owner_noun is not None:
        # Not the verb's own subject: the words name the noun's action, never a type.
        noun = s.doc[owner_noun].lemma_.lower()
        if slot == "agent":  # "the hull of X was repaired by Y": Y repaired X's hull
            acted = [w for w in words if w != "by"]
            return make_relation(obj, subj, [*acted, noun, "of"], "", "dobj", negated, hedged)
        stated = ["be", vt.text.lower(), *words[1:]] if _passive(vt) else words
        return make_relation(subj, obj, [noun, *stated], "", slot, negated, hedged)
    if _passive(vt) and s.doc[up_s[-1]].dep_ == "nsubjpass" and slot == "agent":
        unagented = [w for w in words if w != "by"]
        return make_relation(obj, subj, unagented, lemma, "dobj", negated, hedged)
    if _passive(vt):
        words = ["be", vt.text.lower(), *words[1:]]
    return make_relation(subj, obj, words, lemma, slot, negated, hedged, _passive(vt))


def _subject_noun(s: _Sentence, up_s: list[int]) -> int | None:
    """The subject noun a mention modifies ("the flaw in X", "X's plant", "the X fix"),
    when the subject slot is held by that noun and no mention is the noun itself."""
    top = up_s[-1]
    if len(up_s) < 2 or top in s.all_owned or s.doc[top].pos_ != "NOUN":
        return None
    if all(s.doc[t].dep_ in SUBJECT_CHAIN for t in up_s[:-1]):
        return None  # the mention is the subject itself
    if any(s.doc[t].dep_ not in SUBJECT_MODIFIER_CHAIN | SUBJECT_CHAIN for t in up_s[:-1]):
        return None
    return top


def _attached(
    s: _Sentence, x: int, y: int, up_x: list[int], up_y: list[int], top: int
) -> OpenRelation | None:
    """One mention (the head) governs the other through a phrase attached to it."""
    head, dep, up_d = (x, y, up_y) if top in s.owned[x] else (y, x, up_x)
    below = [t for t in up_d if t not in s.owned[dep]]
    if not below:
        return None
    attach = s.doc[below[-1]]  # the token hanging directly under the head mention
    verbs = [t for t in below if _is_verb(s.doc[t])]
    if verbs:
        return _attached_clause(s, head, dep, up_d, verbs, attach)
    if attach.dep_ == "appos":  # "X, the export arm of Y"
        words = s.words([below[-1], *reversed(below[:-1])])
        return make_relation(head, dep, ["be", *words] if words else [], "", "appos")
    if attach.dep_ == "prep" and len(below) <= 2:  # "Bugey on the Rhone"
        return make_relation(head, dep, [attach.lower_], "", attach.lower_)
    return None


def _attached_clause(
    s: _Sentence, head: int, dep: int, up_d: list[int], verbs: list[int], attach: Any
) -> OpenRelation | None:
    """'X, which owns Y' / 'X, the contractor that Y hired' / 'X, a producer based in Y'."""
    outer = s.doc[verbs[-1]]  # the clause attached to the head
    relative = any(c.dep_ in SUBJECT_DEPS and _relative_pronoun(c) for c in outer.children)
    if outer.dep_ not in ("relcl", "acl") and attach.dep_ != "appos" and not relative:
        return None
    for v in verbs[:-1]:
        if s.doc[v].dep_ not in SAME_SUBJECT or _own_subject(s.doc[v]):
            return None
    inner = s.doc[verbs[0]]
    side = up_d[: up_d.index(verbs[0])]
    particles = [c.i for c in inner.children if c.dep_ == "prt"]
    words = s.words([inner.i, *particles, *reversed(side[1:])])
    flags = (_negated(inner) or _negated(outer), _hedged(inner) or _hedged(outer))
    lemma = inner.lemma_.lower()
    if side and s.doc[side[-1]].dep_ in SUBJECT_DEPS:
        # The other mention is the clause's subject; the head is its object.
        return None if _passive(inner) else make_relation(dep, head, words, lemma, "dobj", *flags)
    slot = _slot(s, side)
    if _passive(inner):
        if slot == "agent":  # "X, which is owned by Y": Y owns X
            return make_relation(dep, head, [w for w in words if w != "by"], lemma, "dobj", *flags)
        stative = ["be", inner.text.lower(), *words[1:]]
        return make_relation(head, dep, stative, lemma, slot, *flags, True)
    if inner.i == outer.i and _own_subject(outer):
        return None
    return make_relation(head, dep, words, lemma, slot, *flags)


def _nominal(
    s: _Sentence, x: int, y: int, up_x: list[int], up_y: list[int], top: int
) -> OpenRelation | None:
    """'X's agreement with Y', 'its Kansanshi mine': a noun both mentions hang off."""
    noun = s.doc[top]
    if noun.pos_ not in ("NOUN", "PROPN"):
        return None
    if any(_is_verb(s.doc[t]) for t in up_x[1:] + up_y[1:]):
        return None
    role_x, role_y = s.doc[up_x[-1]].dep_, s.doc[up_y[-1]].dep_
    owners = ("poss", "compound", "nmod")
    for owner, other, role_o, up_other in ((x, y, role_y, up_y), (y, x, role_x, up_x)):
        role_owner = role_x if owner == x else role_y
        if role_owner in owners and role_o == "prep":
            words = s.words([top, *reversed(up_other[1:])])
            return make_relation(owner, other, words, "", s.doc[up_other[-1]].lower_)
    if {role_x, role_y} == {"poss", "compound"} and len(up_x) == len(up_y) == 1:
        owner, thing = (x, y) if role_x == "poss" else (y, x)
        return make_relation(owner, thing, ["have", noun.lemma_.lower()], "have", "dobj")
    return None


def _anchor(doc: Any, start: int, end: int, taken: set[int], floor: int, ceiling: int) -> int:
    """A mention's head for reading paths: its span's root, raised through the proper
    nouns it is compounded into ("Mondelez" in "Mondelez International") that no other
    mention owns."""
    root = doc[start:end].root.i
    for _ in range(ceiling - floor):
        tok = doc[root]
        h = tok.head.i
        if tok.dep_ != "compound" or h == root or h in taken or not floor <= h < ceiling:
            break
        if doc[h].pos_ != "PROPN":
            break
        root = h
    return root


def relations_between(
    doc: Any, spans: list[tuple[int, int]], floor: int, ceiling: int
) -> list[OpenRelation]:
    """Open relations between mentions given as non-overlapping token spans [start, end)
    of the sentence of tokens [floor, ceiling), in text order; ends index `spans`."""
    taken = {i for a, b in spans for i in range(a, b)}
    heads, owned = [], []
    for a, b in spans:
        head = _anchor(doc, a, b, taken, floor, ceiling)
        toks = set(range(a, b)) | {head}
        t = doc[a:b].root.i
        for _ in range(ceiling - floor):
            if t == head:
                break
            t = doc[t].head.i
            toks.add(t)
        heads.append(head)
        owned.append(toks)
    sentence = _Sentence(doc, floor, ceiling, owned, heads)
    out = []
    for x in range(len(spans)):
        for y in range(x + 1, len(spans)):
            rel = _pair(sentence, x, y)
            if rel is not None:
                out.append(rel)
    return out
