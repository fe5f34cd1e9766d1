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
A member of a general noun's list ("ports, including Kiel") is read in the noun's
place (mining/list_members.py). Coordinated mentions ("A, B and C") are siblings, never
related to each other; a third mention on the path stands between the two unless it is
coordinated or apposed to one.
"""

from __future__ import annotations

from typing import Any

from mining.list_members import example_of_a_kind, list_noun
from mining.open_relation_frames import attached, is_where_clause, nominal
from mining.parse_paths import (
    MAX_PATH,
    MISREAD_SUBJECT,
    REPORTED_SLOT,
    SAME_SUBJECT,
    SIBLING_DEPS,
    SUBJECT_CHAIN,
    SUBJECT_DEPS,
    SUBJECT_MODIFIER_CHAIN,
    OpenRelation,
    ParsedSentence,
    has_own_subject,
    is_hedged,
    is_negated,
    is_passive,
    is_verb,
    make_relation,
    slot_of,
)
from mining.relation_lexicon import EVENT_NOUNS
from mining.relative_actors import relative_subject


def _role(s: ParsedSentence, child: int, verb: int) -> str:
    """How `child` hangs off `verb`, with the misread subject of a small parser repaired."""
    dep = s.doc[child].dep_
    if (
        dep in MISREAD_SUBJECT
        and child < verb
        and not any(c.dep_ in SUBJECT_DEPS for c in s.doc[verb].children)
    ):
        return "nsubj"
    return dep


def _coordinated(s: ParsedSentence, z: int) -> set[int]:
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


def _coordinated_with(s: ParsedSentence, other: int, x: int, y: int) -> bool:
    """Whether `other` stands in a coordination or apposition with one of the pair."""
    return other in _coordinated(s, x) | _coordinated(s, y) or bool({x, y} & _coordinated(s, other))


def _place_within(s: ParsedSentence, t: int, x: int, y: int) -> bool:
    """'Weiz in Austria, where X builds ...', 'Dahej in Gujarat, a terminal that X has
    operated': the parser hangs the "where" clause, or the apposition with its relative
    clause, on the last place, but it tells of the whole phrase's head; that place is no
    third party standing between the head and the clause's actor."""
    tok = s.doc[t]
    prep = tok.head
    described = any(
        (c.dep_ == "relcl" and is_where_clause(c))
        or (c.dep_ == "appos" and any(d.dep_ == "relcl" for d in c.children))
        for c in tok.children
    )
    return (
        tok.dep_ == "pobj"
        and prep.dep_ == "prep"
        and prep.lower_ == "in"
        and prep.head.i in s.owned[x] | s.owned[y]
        and described
    )


def _pair(s: ParsedSentence, x: int, y: int) -> OpenRelation | None:
    found = s.path(x, y)
    if found is None:
        return None
    up_x, top, up_y = found
    ends = s.owned[x] | s.owned[y]
    inner = [t for t in [*up_x[1:], top, *up_y[1:]] if t not in ends]
    if len(inner) > MAX_PATH:
        return None
    deps = [s.doc[t].dep_ for t in up_x + up_y]
    if (not inner or all(d in SIBLING_DEPS for d in deps)) and not {"appos", "poss"} & set(deps):
        return None  # "A, B and C": siblings
    for t in inner:
        other = s.mention_at.get(t)
        if other is not None and other not in (x, y):
            if not _coordinated_with(s, other, x, y) and not _place_within(s, t, x, y):
                return None
    if top in ends:
        return attached(s, x, y, up_x, up_y, top)
    if is_verb(s.doc[top]):
        return _clause(s, x, y, up_x, up_y, top)
    return nominal(s, x, y, up_x, up_y, top)


def _clause(
    s: ParsedSentence, x: int, y: int, up_x: list[int], up_y: list[int], top: int
) -> OpenRelation | None:
    """Both mentions hang off the verb `top`, the object possibly in an inner clause."""
    role_x, role_y = _role(s, up_x[-1], top), _role(s, up_y[-1], top)
    if role_x not in SUBJECT_DEPS and role_y not in SUBJECT_DEPS:
        return _channel(s, x, y, up_x, up_y, top)
    if (role_x in SUBJECT_DEPS) == (role_y in SUBJECT_DEPS):
        return None
    subj, obj, up_s, up_o = (x, y, up_x, up_y) if role_x in SUBJECT_DEPS else (y, x, up_y, up_x)
    # "The ferries that X retired sail for Y": X acts through the noun its clause describes.
    relative = relative_subject(s, up_s)
    if relative is None and any(is_verb(s.doc[t]) for t in up_s[1:]):
        return None
    owner_noun = _subject_noun(s, up_s) if relative is None else None
    itself = relative is None and owner_noun is None  # the mention is the subject itself
    if itself and any(s.doc[t].dep_ not in SUBJECT_CHAIN for t in up_s[:-1]):
        return None  # an owner or modifier inside the subject phrase is not its subject
    inner_verbs = [t for t in up_o[1:] if is_verb(s.doc[t]) and t not in s.all_owned]
    if itself and (told := _reported(s, subj, obj, up_o, top)) is not None:
        return told
    # "agreed to supply X", "said it would stop buying from X": the same subject; an
    # inner clause with a subject of its own states another fact.
    for v in inner_verbs:
        if s.doc[v].dep_ not in SAME_SUBJECT or has_own_subject(s.doc[v]):
            return None
    verb = inner_verbs[0] if inner_verbs else top  # the innermost verb names the action
    below = up_o[: up_o.index(verb)] if verb in up_o else up_o
    vt = s.doc[verb]
    particles = [c.i for c in vt.children if c.dep_ == "prt"]
    words = s.words([verb, *particles, *reversed(below[1:])])
    if any(_object_controlled(s, v) for v in inner_verbs):
        # "advised users to downgrade X": the users downgrade; the subject advises it.
        between = [s.doc[v].lemma_.lower() for v in reversed(inner_verbs[1:])]
        words = [s.doc[top].lemma_.lower(), "to", *between, *words]
    negated = is_negated(s.doc[top]) or is_negated(vt)
    hedged = is_hedged(s.doc[top]) or is_hedged(vt)
    slot = slot_of(s, below)
    lemma = vt.lemma_.lower()
    if relative is not None:
        if is_passive(vt):
            return None  # "were bought by Y": who acted on the thing is another reading
        clause, noun = (s.doc[t] for t in relative)
        given = [c.lower_ for c in clause.children if c.dep_ == "prt"]  # "gave up"
        acted = [clause.lemma_.lower(), *given, noun.lemma_.lower()]
        flags = (negated or is_negated(clause), hedged or is_hedged(clause))
        return make_relation(subj, obj, [*acted, *words], "", slot, *flags)
    if owner_noun is not None:
        # Not the verb's own subject: the words name the noun's action, never a type.
        noun = s.doc[owner_noun].lemma_.lower()
        if slot == "agent":  # "the hull of X was repaired by Y": Y repaired X's hull
            acted = [w for w in words if w != "by"]
            return make_relation(obj, subj, [*acted, noun, "of"], "", "dobj", negated, hedged)
        if _owned_subject(s, up_s) and (noun in EVENT_NOUNS or _renamed(s, owner_noun)):
            return None
        stated = ["be", vt.text.lower(), *words[1:]] if is_passive(vt) else words
        return make_relation(subj, obj, [noun, *stated], "", slot, negated, hedged)
    if is_passive(vt) and s.doc[up_s[-1]].dep_ == "nsubjpass" and slot == "agent":
        unagented = [w for w in words if w != "by"]
        return make_relation(obj, subj, unagented, lemma, "dobj", negated, hedged)
    if is_passive(vt):
        words = ["be", vt.text.lower(), *words[1:]]
    return make_relation(subj, obj, words, lemma, slot, negated, hedged, is_passive(vt))


# Prepositions naming the party an act goes through: "approved shipments to X through Y".
CHANNEL_PREPS = frozenset({"through", "via"})


def _channel(
    s: ParsedSentence, x: int, y: int, up_x: list[int], up_y: list[int], top: int
) -> OpenRelation | None:
    """'Through NCEL, India approved shipments to Nepal': the party an act goes through
    carries it to what the act's object reaches (NCEL, "approve through shipment to",
    Nepal); the act's subject keeps its own relation to both."""
    for via, other, up_v, up_o in ((x, y, up_x, up_y), (y, x, up_y, up_x)):
        prep = s.doc[up_v[-1]]
        if prep.dep_ != "prep" or prep.lower_ not in CHANNEL_PREPS or len(up_v) != 2:
            continue
        reached = s.doc[up_o[-1]]
        if any(is_verb(s.doc[t]) for t in up_o[1:]) or not (
            reached.dep_ == "dobj" or (reached.dep_ == "prep" and reached.lower_ == "to")
        ):
            return None  # only what the act itself reaches, not when or why it happened
        vt = s.doc[top]
        words = s.words([top, *reversed(up_o[1:])])
        flags = (is_negated(vt), is_hedged(vt))
        return make_relation(via, other, [words[0], prep.lower_, *words[1:]], "", "via", *flags)
    return None


def _object_controlled(s: ParsedSentence, verb: int) -> bool:
    """An infinitive whose doer is the object of the verb it hangs off ("told users to
    stop", "ordered agencies to disconnect"), not that verb's subject ("agreed to")."""
    tok = s.doc[verb]
    return tok.dep_ == "xcomp" and any(c.dep_ == "dobj" for c in tok.head.children)


def _reported(
    s: ParsedSentence, subj: int, obj: int, up_o: list[int], top: int
) -> OpenRelation | None:
    """'X warned that Y contained ...', 'X said it was used ...': Y is the subject of a
    clause X states, so X speaks of Y (what the clause says of Y is its own fact)."""
    clause = s.doc[up_o[-1]]
    if len(up_o) < 2 or clause.dep_ != "ccomp" or not is_verb(clause):
        return None
    below = up_o[:-1]
    if s.doc[below[-1]].dep_ not in SUBJECT_DEPS:
        return None
    if any(s.doc[t].dep_ not in SUBJECT_CHAIN for t in below[:-1]):
        return None  # the mention is inside the subject, not the subject
    verb = s.doc[top]
    marked = any(c.dep_ == "mark" and c.lower_ == "that" for c in clause.children)
    stated = ["be", clause.text.lower()] if is_passive(clause) else [clause.lemma_.lower()]
    words = [verb.lemma_.lower(), *(["that"] if marked else []), *stated]
    negated = is_negated(verb) or is_negated(clause)
    hedged = is_hedged(verb) or is_hedged(clause)
    return make_relation(subj, obj, words, "", REPORTED_SLOT, negated, hedged)


def _subject_noun(s: ParsedSentence, up_s: list[int]) -> int | None:
    """The subject noun a mention modifies ("the flaw in X", "its submission", "the X fix"),
    when the subject slot is held by that noun and no mention is the noun itself."""
    top = up_s[-1]
    if len(up_s) < 2 or top in s.all_owned or s.doc[top].pos_ != "NOUN":
        return None
    if all(s.doc[t].dep_ in SUBJECT_CHAIN for t in up_s[:-1]):
        return None  # the mention is the subject itself
    if any(s.doc[t].dep_ not in SUBJECT_MODIFIER_CHAIN | SUBJECT_CHAIN | {"poss"}
           for t in up_s[:-1]):  # fmt: skip
        return None
    return top


def _owned_subject(s: ParsedSentence, up_s: list[int]) -> bool:
    """Whether the mention owns the subject noun ("X's restrictions", "its agreement").
    An owned event or policy acts for itself ("China's export restrictions affect Y" is
    what the restrictions do, read as an event of their own), so only what is done to it
    ("was put on hold by Y") says something of the owner; any other owned thing is the
    owner acting through it ("Uniper's agreement with Y will bring gas to Z": Uniper,
    "agreement bring to"), as in a "whose" clause (open_relation_frames)."""
    return any(s.doc[t].dep_ == "poss" for t in up_s[:-1])


def _renamed(s: ParsedSentence, noun: int) -> bool:
    """Whether an apposition names the noun itself ("Tesla's new source, Tianqi Lithium,
    buys ..."): then the named one acts, not the owner."""
    return any(c.dep_ == "appos" and c.i in s.all_owned for c in s.doc[noun].children)


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
        noun = list_noun(doc[head])
        if noun is not None and floor <= noun.i < ceiling and noun.i not in taken:
            # "sells tickets to several ports, including Kiel": Kiel in the noun's slot.
            head = noun.i
        toks = set(range(a, b)) | {head}
        t = doc[a:b].root.i
        for _ in range(ceiling - floor):
            if t == head:
                break
            t = doc[t].head.i
            toks.add(t)
        heads.append(head)
        owned.append(toks)
    sentence = ParsedSentence(doc, floor, ceiling, owned, heads)
    # "minerals refined by companies such as A": A is an example of a kind, no party.
    examples = {n for n, h in enumerate(heads) if example_of_a_kind(doc[h])}
    out = []
    for x in range(len(spans)):
        for y in range(x + 1, len(spans)):
            if x in examples or y in examples:
                continue
            rel = _pair(sentence, x, y)
            if rel is not None:
                out.append(rel)
    return out
