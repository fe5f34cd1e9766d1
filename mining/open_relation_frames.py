"""The other half of mining/open_relations.py: relations a phrase attached to one
mention states ("X, the export arm of Y", "X, which owns Y", "Bugey on the Rhone"), and
nominal frames ("X's agreement with Y", "its Kansanshi mine"). Pure over the same
sentence paths; no verb or noun of any domain is listed."""

from __future__ import annotations

from typing import Any

from mining.parse_paths import (
    SAME_SUBJECT,
    SUBJECT_DEPS,
    OpenRelation,
    ParsedSentence,
    has_own_subject,
    is_hedged,
    is_negated,
    is_passive,
    is_relative_pronoun,
    is_verb,
    make_relation,
    slot_of,
)


def attached(
    s: ParsedSentence, x: int, y: int, up_x: list[int], up_y: list[int], top: int
) -> OpenRelation | None:
    """One mention (the head) governs the other through a phrase attached to it."""
    head, dep, up_d = (x, y, up_y) if top in s.owned[x] else (y, x, up_x)
    below = [t for t in up_d if t not in s.owned[dep]]
    owner = s.doc[up_d[-1]] if up_d else None
    if not below and owner is not None and owner.dep_ == "poss" and owner.pos_ == "PROPN":
        # "Ghana's Cocoa Board": the board of Ghana ("of" alone is a relation only here).
        return OpenRelation(head, dep, "of", "", "of", False, False, False)
    if not below:
        return None
    attach = s.doc[below[-1]]  # the token hanging directly under the head mention
    verbs = [t for t in below if is_verb(s.doc[t])]
    if verbs:
        return _attached_clause(s, head, dep, up_d, verbs, attach)
    if attach.dep_ == "appos":  # "X, the export arm of Y"
        words = s.words([below[-1], *reversed(below[:-1])])
        return make_relation(head, dep, ["be", *words] if words else [], "", "appos")
    if attach.dep_ == "prep" and len(below) <= 2:  # "Bugey on the Rhone"
        return make_relation(head, dep, [attach.lower_], "", attach.lower_)
    return None


def _describes_a_noun_within(s: ParsedSentence, up_d: list[int], clause: Any) -> bool:
    """'the iPhone of an employee of an organisation based in Y': the clause says what the
    organisation is, a noun inside a phrase of the head mention, not the mention itself."""
    noun = clause.head
    if noun.i in s.all_owned or noun.dep_ == "appos":
        return False  # a named thing's clause, or an apposition saying what one is
    above = up_d[up_d.index(clause.i) + 1 :]
    return any(s.doc[t].dep_ == "prep" for t in above)


def _attached_clause(
    s: ParsedSentence, head: int, dep: int, up_d: list[int], verbs: list[int], attach: Any
) -> OpenRelation | None:
    """'X, which owns Y' / 'X, the contractor that Y hired' / 'X, a producer based in Y'."""
    outer = s.doc[verbs[-1]]  # the clause attached to the head
    relative = any(c.dep_ in SUBJECT_DEPS and is_relative_pronoun(c) for c in outer.children)
    if outer.dep_ not in ("relcl", "acl") and attach.dep_ != "appos" and not relative:
        return None
    for v in verbs[:-1]:
        if s.doc[v].dep_ not in SAME_SUBJECT or has_own_subject(s.doc[v]):
            return None
    if _describes_a_noun_within(s, up_d, outer):
        return None
    inner = s.doc[verbs[0]]
    side = up_d[: up_d.index(verbs[0])]
    particles = [c.i for c in inner.children if c.dep_ == "prt"]
    words = s.words([inner.i, *particles, *reversed(side[1:])])
    flags = (is_negated(inner) or is_negated(outer), is_hedged(inner) or is_hedged(outer))
    lemma = inner.lemma_.lower()
    if side and s.doc[side[-1]].dep_ in SUBJECT_DEPS:
        if is_where_clause(outer):  # "Rosyth, where X is converting a hall": X acts there
            return make_relation(dep, head, [*words, "at"], lemma, "at", *flags)
        # The other mention is the clause's subject; the head is its object.
        return None if is_passive(inner) else make_relation(dep, head, words, lemma, "dobj", *flags)
    slot = slot_of(s, side)
    if is_passive(inner):
        if slot == "agent":  # "X, which is owned by Y": Y owns X
            return make_relation(dep, head, [w for w in words if w != "by"], lemma, "dobj", *flags)
        stative = ["be", inner.text.lower(), *words[1:]]
        return make_relation(head, dep, stative, lemma, slot, *flags, True)
    if inner.i == outer.i and has_own_subject(outer):
        owned = _whose_subject(outer)
        if owned is None:
            return None
        # "X, the utility whose line started Y": what X's own N did, X did through it.
        words = [owned.lemma_.lower(), *words]
    return make_relation(head, dep, words, lemma, slot, *flags)


def _whose_subject(clause: Any) -> Any | None:
    """The subject of a relative clause opened by "whose" ("whose line started ..."): a
    thing of the noun the clause describes, not a party of its own."""
    for c in clause.children:
        if c.dep_ in SUBJECT_DEPS and any(
            p.dep_ == "poss" and p.lower_ == "whose" for p in c.children
        ):
            return c
    return None


def is_where_clause(clause: Any) -> bool:
    """A relative clause opened by "where": the head is the place of its act."""
    return any(c.dep_ == "advmod" and c.lower_ == "where" for c in clause.children)


def nominal(
    s: ParsedSentence, x: int, y: int, up_x: list[int], up_y: list[int], top: int
) -> OpenRelation | None:
    """'X's agreement with Y', 'its Kansanshi mine', 'its supplier, Y': a noun both
    mentions hang off."""
    noun = s.doc[top]
    if noun.pos_ not in ("NOUN", "PROPN"):
        return None
    if any(is_verb(s.doc[t]) for t in up_x[1:] + up_y[1:]):
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
    if {role_x, role_y} == {"poss", "appos"} and len(up_x) == len(up_y) == 1:
        # "its main egg supplier, Prairie Crest Eggs": the named one is the owner's N.
        owner, named = (x, y) if role_x == "poss" else (y, x)
        return make_relation(named, owner, ["be", noun.lemma_.lower(), "of"], "", "appos")
    return None
