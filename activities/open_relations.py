"""Open relations from a dependency parse: any verb or relational noun that joins two mentions.

Pure over a parsed spaCy sentence and its entity mentions. For every pair of mentions in
a sentence the dependency path between them is read, and it yields a relation when the
path is a clause (a subject, a verb and an object or prepositional slot, through
relative clauses, participles, infinitives and clauses whose subject is the same), or a
nominal frame (an apposition "X, the export arm of Y", a possessive "X's agreement with
Y"). The predicate is the path's own words, lemmatised ("halt production of", "sign
agreement with", "be fined by" read as "fine" with the agent as subject); negation and
modality are kept as flags. Nothing here lists verbs or nouns of any domain: the parse
decides.

Every walk over the tree is bounded by the sentence's length and uses token indices, so
no text can make it loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
OBJECT_DEPS = frozenset({"dobj", "attr", "dative", "oprd", "pobj", "acomp", "obj", "appos"})
# Links that a relation may cross on its way from a clause to an entity inside an object
# phrase ("halted production of X", "took one of the units at X").
NOMINAL_DOWN = frozenset({"prep", "pobj", "dobj", "compound", "amod", "nmod", "poss", "npadvmod",
                          "attr", "appos", "agent", "dative", "conj", "pcomp", "acl", "relcl",
                          "xcomp", "advmod", "oprd", "nummod", "quantmod"})
# Clauses that share the subject of the verb they hang off.
SAME_SUBJECT = frozenset({"xcomp", "conj", "advcl", "ccomp", "acl", "relcl", "pcomp"})
MODAL_WORDS = frozenset({"may", "might", "could", "would", "should", "can"})
REL_PRONOUN_TAGS = frozenset({"WDT", "WP", "WP$"})
# Closed-class words of English grammar, not of any domain: the small tagger often reads
# a relative "that" as a determiner.
REL_PRONOUNS = frozenset({"that", "which", "who", "whom", "whose"})
MAX_PATH = 9  # tokens on the path between two mentions, both ends excluded
MAX_PREDICATE_WORDS = 5
PREDICATE_POS = frozenset({"VERB", "AUX", "NOUN", "ADP", "ADJ", "PART", "PROPN", "ADV"})


@dataclass(frozen=True)
class OpenRelation:
    subject: int  # index of the subject mention in the sentence's mention list
    object: int
    predicate: str  # lemmas, lower case: "halt production of"
    verb: str  # the lemma of the clause's verb, "" for a nominal frame
    slot: str  # the object's slot: dobj, attr, a preposition, agent, appos, poss
    negated: bool
    hedged: bool
    passive: bool


def _chain(doc: Any, i: int, floor: int, ceiling: int) -> list[int]:
    """Token indices from i up to the root of its sentence (inclusive), by index."""
    out = [i]
    for _ in range(ceiling - floor + 1):
        h = doc[out[-1]].head.i
        if h == out[-1] or not floor <= h < ceiling:
            break
        out.append(h)
    return out


def _path(doc: Any, a: int, b: int, floor: int, ceiling: int) -> tuple[list[int], int, list[int]] | None:
    """(a's side up to the common ancestor, the ancestor, b's side), or None."""
    up_a = _chain(doc, a, floor, ceiling)
    up_b = _chain(doc, b, floor, ceiling)
    on_b = {t: n for n, t in enumerate(up_b)}
    for n, t in enumerate(up_a):
        if t in on_b:
            return up_a[:n], t, up_b[: on_b[t]]
    return None


def _negated(doc: Any, i: int) -> bool:
    return any(c.dep_ == "neg" or c.lower_ in ("never", "no") for c in doc[i].children)


def _hedged(doc: Any, i: int) -> bool:
    tok = doc[i]
    if any(c.dep_ == "aux" and c.lower_ in MODAL_WORDS for c in tok.children):
        return True
    # "plans to build", "is expected to supply": the action is not (yet) a fact.
    return tok.dep_ == "xcomp" and tok.head.tag_ in ("VBN",) or tok.tag_ == "VB" and tok.dep_ == "xcomp" and any(
        c.dep_ == "aux" and c.lower_ in MODAL_WORDS for c in tok.head.children
    )


def _relative_pronoun(tok: Any) -> bool:
    return tok.tag_ in REL_PRONOUN_TAGS or tok.lower_ in REL_PRONOUNS


def _is_verb(tok: Any) -> bool:
    return tok.pos_ in ("VERB", "AUX")


def _passive(tok: Any) -> bool:
    return any(c.dep_ in ("nsubjpass", "auxpass") for c in tok.children) or (
        tok.tag_ == "VBN" and tok.dep_ in ("acl", "relcl") and not any(c.dep_ == "nsubj" for c in tok.children)
    )


def _own_subject(tok: Any, skip: frozenset[int]) -> bool:
    """Whether a clause has a subject of its own that is not a pronoun standing for the
    clause's head or one of the pair's mentions."""
    for c in tok.children:
        if c.dep_ in SUBJECT_DEPS and c.i not in skip:
            if _relative_pronoun(c) or c.pos_ == "PRON":
                continue
            return True
    return False


def _predicate_words(doc: Any, tokens: list[int], owned: set[int]) -> list[str]:
    words: list[str] = []
    for i in tokens:
        t = doc[i]
        if i in owned or i in doc.user_data.get("mention_tokens", ()) or t.pos_ not in PREDICATE_POS or t.is_punct:
            continue
        if t.pos_ == "ADV" and t.dep_ != "prt":
            continue
        if t.pos_ == "ADJ" and t.dep_ not in ("acomp", "amod", "advmod"):
            continue
        words.append(t.lemma_.lower() if t.pos_ != "PROPN" else t.text)
    return words


def relate(
    doc: Any, heads: list[int], owned: list[set[int]], floor: int, ceiling: int
) -> list[OpenRelation]:
    """Open relations between the mentions whose head tokens are `heads` (one per mention,
    in text order) in the sentence spanning tokens [floor, ceiling)."""
    out: list[OpenRelation] = []
    all_owned = set().union(*owned) if owned else set()
    head_of = {}
    for n, toks in enumerate(owned):
        for t in toks:
            head_of.setdefault(t, n)
    for x in range(len(heads)):
        for y in range(x + 1, len(heads)):
            rel = _pair(doc, x, y, heads, owned, head_of, all_owned, floor, ceiling)
            if rel is not None:
                out.append(rel)
    return out


def _pair(
    doc: Any, x: int, y: int, heads: list[int], owned: list[set[int]], head_of: dict[int, int],
    all_owned: set[int], floor: int, ceiling: int,
) -> OpenRelation | None:
    found = _path(doc, heads[x], heads[y], floor, ceiling)
    if found is None:
        return None
    up_x, top, up_y = found
    inner = [t for t in [*up_x[1:], top, *up_y[1:]] if t not in owned[x] and t not in owned[y]]
    if len(inner) > MAX_PATH:
        return None
    # Coordinated mentions ("A, B and C") are siblings, not related to each other.
    deps_x = [doc[t].dep_ for t in up_x]
    deps_y = [doc[t].dep_ for t in up_y]
    if not inner or all(d in ("conj", "appos", "compound", "cc", "punct") for d in deps_x + deps_y):
        if not any(d == "appos" for d in deps_x + deps_y):
            return None
    # A third mention on the path stands between them: the relation is theirs, not this one's.
    for t in inner:
        other = head_of.get(t)
        if other is not None and other not in (x, y):
            # Crossing a coordinated or apposed mention keeps the role ("supplies A and
            # B", "Electricite de France (EDF) took"): the step into x or y is conj/appos.
            if not _coordinated_with(doc, t, owned[other], owned[x] | owned[y], up_x + up_y):
                return None
    verbs_x = [t for t in up_x[1:] if _is_verb(doc[t]) and t not in all_owned]
    verbs_y = [t for t in up_y[1:] if _is_verb(doc[t]) and t not in all_owned]
    top_tok = doc[top]
    if top in owned[x] or top in owned[y]:
        # One mention hangs under the other: an apposition, relative clause or participle.
        return _under(doc, x, y, up_x, up_y, top, owned, all_owned)
    if _is_verb(top_tok):
        return _clause(doc, x, y, up_x, up_y, top, verbs_x, verbs_y, owned, all_owned)
    # A nominal frame: "X's agreement with Y", "the partnership between X and Y".
    if verbs_x or verbs_y:
        return None
    if top_tok.pos_ not in ("NOUN", "PROPN"):
        return None
    role_x = doc[up_x[-1]].dep_
    role_y = doc[up_y[-1]].dep_
    if role_x in ("poss", "compound", "nmod") and role_y == "prep":
        words = _predicate_words(doc, [top, *reversed(up_y[1:])], owned[x] | owned[y])
        return _make(x, y, words, "", doc[up_y[-1]].lower_, False, False, False)
    if role_y in ("poss", "compound", "nmod") and role_x == "prep":
        words = _predicate_words(doc, [top, *reversed(up_x[1:])], owned[x] | owned[y])
        return _make(y, x, words, "", doc[up_x[-1]].lower_, False, False, False)
    # "X's Y mine", "its Kansanshi mine": the owner has the thing the noun names.
    if {role_x, role_y} == {"poss", "compound"} and len(up_x) == len(up_y) == 1:
        owner, owned_thing = (x, y) if role_x == "poss" else (y, x)
        noun = top_tok.lemma_.lower()
        return _make(owner, owned_thing, ["have", noun], "have", "dobj", False, False, False)
    return None


def _coordinated_with(doc: Any, t: int, other: set[int], ends: set[int], path: list[int]) -> bool:
    """Whether the path steps between `other` and one of the pair by conj or appos."""
    for u in path:
        if u in ends and doc[u].dep_ in ("conj", "appos") and doc[u].head.i in other:
            return True
        if u in other and doc[u].dep_ in ("conj", "appos") and doc[u].head.i in ends:
            return True
    return False


def _make(
    s: int, o: int, words: list[str], verb: str, slot: str, negated: bool, hedged: bool,
    passive: bool,
) -> OpenRelation | None:
    words = [w for w in words if w][:MAX_PREDICATE_WORDS]
    if not words or all(w in ("be", "have", "of", "in", "to", "with", "for", "at", "on") for w in words):
        if not (words and words[-1] in ("in", "at", "on")):
            return None
    return OpenRelation(s, o, " ".join(words), verb, slot, negated, hedged, passive)


def _slot(doc: Any, side: list[int], verb: int) -> str:
    """How the mention at the bottom of `side` hangs off `verb`."""
    child = side[-1] if side else None
    if child is None:
        return ""
    dep = doc[child].dep_
    if dep == "prep" or dep == "agent":
        return "agent" if dep == "agent" else doc[child].lower_
    return dep


def _role(doc: Any, child: int, verb: int) -> str:
    """The dependency of `child` on `verb`; a noun before a verb with no subject that the
    small parser attached as a compound or modifier is read as its subject (it often
    takes "Solutions manufactures" for a compound noun)."""
    dep = doc[child].dep_
    if dep in ("compound", "npadvmod", "nmod", "dep", "amod") and child < verb and not any(
        c.dep_ in SUBJECT_DEPS for c in doc[verb].children
    ):
        return "nsubj"
    return dep


def _clause(
    doc: Any, x: int, y: int, up_x: list[int], up_y: list[int], top: int,
    verbs_x: list[int], verbs_y: list[int], owned: list[set[int]], all_owned: set[int],
) -> OpenRelation | None:
    """Both mentions hang off the verb `top` (possibly through inner clauses)."""
    role_x = _role(doc, up_x[-1], top)
    role_y = _role(doc, up_y[-1], top)
    skip = frozenset(owned[x] | owned[y])
    # The subject side: a subject, or the agent of a passive.
    if role_x in SUBJECT_DEPS and role_y not in SUBJECT_DEPS:
        subj, obj, up_s, up_o, verbs_o = x, y, up_x, up_y, verbs_y
    elif role_y in SUBJECT_DEPS and role_x not in SUBJECT_DEPS:
        subj, obj, up_s, up_o, verbs_o = y, x, up_y, up_x, verbs_x
    else:
        return None
    if [t for t in up_s[1:] if _is_verb(doc[t])]:
        return None  # the subject belongs to a clause inside the subject phrase
    # The object may sit in an inner clause whose subject is the same ("agreed to supply
    # X", "said it would stop buying from X"); one with a subject of its own is another fact.
    for v in verbs_o:
        if doc[v].dep_ not in SAME_SUBJECT or _own_subject(doc[v], frozenset()):
            return None
    verb = verbs_o[0] if verbs_o else top  # the innermost verb names the action
    below = up_o[: up_o.index(verb)] if verb in up_o else up_o
    slot = _slot(doc, below, verb)
    passive = _passive(doc[top]) if verb == top else _passive(doc[verb])
    verb_tok = doc[verb]
    particles = [c.i for c in verb_tok.children if c.dep_ == "prt"]
    words = _predicate_words(doc, [verb, *particles, *reversed(below[1:])], set(skip))
    negated = any(_negated(doc, v) for v in {top, verb})
    hedged = any(_hedged(doc, v) for v in {top, verb})
    if passive and doc[up_s[-1]].dep_ in ("nsubjpass",) and slot == "agent":
        # "X was fined by Y": Y fined X.
        words = [w for w in words if w != "by"]
        return _make(obj, subj, words, verb_tok.lemma_.lower(), "dobj", negated, hedged, False)
    if passive:
        words = ["be", verb_tok.text.lower(), *words[1:]]
    return _make(subj, obj, words, verb_tok.lemma_.lower(), slot, negated, hedged, passive)


def _under(
    doc: Any, x: int, y: int, up_x: list[int], up_y: list[int], top: int,
    owned: list[set[int]], all_owned: set[int],
) -> OpenRelation | None:
    """One mention (the head) governs the other through a clause or noun phrase attached to it."""
    head, dep_side, up_d = (x, y, up_y) if top in owned[x] else (y, x, up_x)
    below = [t for t in up_d if t not in owned[dep_side]]
    if not below:
        return None
    attach = doc[below[-1]]  # the token hanging directly under the head mention
    skip = owned[x] | owned[y]
    verbs = [t for t in below if _is_verb(doc[t])]
    if verbs:
        verb = verbs[-1]  # the clause attached to the head
        vt = doc[verb]
        relative = any(c.dep_ in SUBJECT_DEPS and _relative_pronoun(c) for c in vt.children)
        if vt.dep_ not in ("relcl", "acl") and attach.dep_ != "appos" and not relative:
            return None
        for v in verbs[:-1]:
            if doc[v].dep_ not in SAME_SUBJECT or _own_subject(doc[v], frozenset()):
                return None
        inner = verbs[0]
        side = up_d[: up_d.index(inner)]
        slot_dep = doc[side[-1]].dep_ if side else ""
        it = doc[inner]
        negated = _negated(doc, inner) or _negated(doc, verb)
        hedged = _hedged(doc, inner) or _hedged(doc, verb)
        particles = [c.i for c in it.children if c.dep_ == "prt"]
        words = _predicate_words(doc, [inner, *particles, *reversed(side[1:])], set(skip))
        if slot_dep in SUBJECT_DEPS:
            # "X, the contractor that Y hired": Y acts on the head (the relative pronoun
            # is the object).
            if _passive(it):
                return None
            return _make(dep_side, head, words, it.lemma_.lower(), "dobj", negated, hedged, False)
        if _passive(it):
            slot = _slot(doc, side, inner)
            if slot == "agent":
                words = [w for w in words if w != "by"]
                return _make(dep_side, head, words, it.lemma_.lower(), "dobj", negated, hedged, False)
            words = ["be", it.text.lower(), *words[1:]]
            return _make(head, dep_side, words, it.lemma_.lower(), slot, negated, hedged, True)
        if _own_subject(doc[verb], frozenset(skip)) and inner == verb:
            return None
        return _make(head, dep_side, words, it.lemma_.lower(), _slot(doc, side, inner), negated,
                     hedged, False)
    # No verb: "X, the export arm of Y", "X in Y", "X (Y's subsidiary)".
    words = _predicate_words(doc, list(reversed(below[1:])) if attach.dep_ != "appos" else
                             [below[-1], *reversed(below[1:-1])], set(skip))
    if attach.dep_ == "appos":
        return _make(head, dep_side, ["be", *words] if words else [], "", "appos", False, False, False)
    if attach.dep_ == "prep" and len(below) <= 2:
        return _make(head, dep_side, [attach.lower_], "", attach.lower_, False, False, False)
    if attach.dep_ == "poss" and len(below) == 1:
        return None
    return None


def anchor_heads(doc: Any, spans: list[tuple[int, int]], floor: int, ceiling: int) -> list[int]:
    """Each mention's head token (by index) for reading paths: the span's root, raised
    through proper-noun compounds it modifies ("Mondelez" in "Mondelez International",
    when only "Mondelez" is the mention) while the raised head is itself a proper noun
    not owned by another mention."""
    taken = {i for a, b in spans for i in range(a, b)}
    out = []
    for a, b in spans:
        root = doc[a:b].root.i
        for _ in range(ceiling - floor):
            tok = doc[root]
            h = tok.head.i
            if tok.dep_ != "compound" or h == root or h in taken or not floor <= h < ceiling:
                break
            if doc[h].pos_ != "PROPN":
                break
            root = h
        out.append(root)
    return out


def relations_between(
    doc: Any, spans: list[tuple[int, int]], floor: int, ceiling: int
) -> list[OpenRelation]:
    """Open relations between mentions given as token spans [start, end) of one sentence
    (tokens floor..ceiling), in text order; relation ends index `spans`."""
    heads = anchor_heads(doc, spans, floor, ceiling)
    doc.user_data["mention_tokens"] = {i for a, b in spans for i in range(a, b)}
    owned = []
    for (a, b), h in zip(spans, heads, strict=True):
        toks = set(range(a, b))
        t = doc[a:b].root.i
        for _ in range(ceiling - floor):
            if t == h:
                break
            toks.add(doc[t].head.i)
            t = doc[t].head.i
        toks.add(h)
        owned.append(toks)
    found = relate(doc, heads, owned, floor, ceiling)
    related = {frozenset((r.subject, r.object)) for r in found}
    return found + [
        r for r in neighbour_relations(doc, spans, floor, ceiling)
        if frozenset((r.subject, r.object)) not in related
    ]


MAX_GAP = 4  # tokens between two neighbouring mentions read as "X <verb group> Y"


def _verbal(tok: Any) -> bool:
    """A verb by its tag, or a past form the small tagger read as an adjective
    ("cross-debarred" JJ): English morphology, not a word list."""
    return tok.tag_.startswith("VB") or (tok.tag_ == "JJ" and tok.lower_.endswith("ed"))


def neighbour_relations(
    doc: Any, spans: list[tuple[int, int]], floor: int, ceiling: int
) -> list[OpenRelation]:
    """'X <verb group> Y' between neighbouring mentions, read from the words between them:
    for the sentences the small parser gets wrong ("The World Bank debarred Transmeridian
    Engineering" parsed as a noun phrase with "debarred" as an adjective)."""
    out: list[OpenRelation] = []
    for n in range(len(spans) - 1):
        gap = list(range(spans[n][1], spans[n + 1][0]))
        if not 1 <= len(gap) <= MAX_GAP:
            continue
        toks = [doc[i] for i in gap]
        core = list(toks)
        while core and core[-1].pos_ in ("ADP", "DET"):
            core.pop()  # "debarred (from) (the)": prepositions and articles after the verb
        verbs = [t for t in core if _verbal(t) and t.pos_ != "PROPN"]
        if not verbs or core[-1].i != verbs[-1].i:
            continue
        if any(t.pos_ not in ("AUX", "ADV", "PART", "ADJ", "VERB", "PUNCT") for t in core):
            continue
        if any(t.is_punct and t.text not in ("-", "–") or t.pos_ in ("CCONJ", "SCONJ", "PRON")
               or t.tag_ in REL_PRONOUN_TAGS for t in toks):
            continue
        # The first mention must open its clause: a name after a preposition ("the
        # contract with X awarded Y") is not a subject.
        before = doc[spans[n][0] - 1] if spans[n][0] > floor else None
        if before is not None and before.pos_ == "ADP":
            continue
        main = verbs[-1]
        passive = main.tag_ == "VBN" and any(t.lemma_.lower() == "be" for t in toks) and toks[-1].lower_ == "by"
        words = [main.lemma_.lower(), *(t.lower_ for t in toks if t.pos_ == "ADP" and t.i > main.i)]
        negated = any(t.dep_ == "neg" or t.lower_ in ("not", "never", "n't") for t in toks)
        hedged = any(t.lower_ in MODAL_WORDS for t in toks)
        if passive:
            words = [w for w in words if w != "by"]
            rel = _make(n + 1, n, words, main.lemma_.lower(), "dobj", negated, hedged, False)
        else:
            slot = words[1] if len(words) > 1 else "dobj"
            rel = _make(n, n + 1, words, main.lemma_.lower(), slot, negated, hedged, False)
        if rel is not None:
            out.append(rel)
    return out
