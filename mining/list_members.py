"""Named members of a general noun: "several ports, including Kiel and Gdansk",
"shipyards such as A and B", "galleries like the Louvre", "Several carriers, including A
and B, cancelled ...".

A common noun that names no entity, followed by a list its cue word introduces
("including", "such as", "like", "among them", "among others"), stands for the entities
of that list: whatever the sentence says of the noun, it says of each named member, in
the noun's own slot. The cue words are closed-class English; nothing here knows a
domain. Pure over a spaCy parse; every walk is bounded by the sentence's length and
compares token indices.
"""

from __future__ import annotations

from typing import Any

# Words that introduce examples of the noun before them.
EXAMPLE_CUES = frozenset({"including", "like"})
# "such as": the "as" after a "such" (on the cue, or on the noun: "such shipyards as").
SUCH = "such"
# "among them", "among others": the pronoun stands for the noun; the names follow.
AMONG, AMONG_PRONOUNS = "among", frozenset({"them", "others"})
_CUE_DEPS = frozenset({"prep", "acl"})
_MEMBER_DEPS = frozenset({"pobj", "dobj"})


def _is_cue_word(cue: Any) -> bool:
    """"including", "like", "among them/others", or the "as" of "such as" (the "such" on
    the cue, before it, or on the noun: "such shipyards as")."""
    if cue.dep_ not in _CUE_DEPS:
        return False
    word = cue.lower_
    if word in EXAMPLE_CUES or _among(cue):
        return True
    if word != "as":
        return False
    before = cue.doc[cue.i - 1] if cue.i > 0 else None
    return (before is not None and before.lower_ == SUCH) or any(
        c.lower_ == SUCH for c in [*cue.children, *cue.head.children]
    )


def _host(cue: Any, kinds: bool = False) -> Any | None:
    """The general noun a cue gives examples of: the noun it hangs off, or, where the
    parser hung it on the verb ("supplies steel to shipyards, including A"), the
    verb's object that ends right before it. Unless `kinds`, none in a participle that
    describes another noun ("minerals refined by companies such as A"): the examples
    say what kind of thing is meant, not what any of them did."""
    if not _is_cue_word(cue):
        return None
    host = _noun_of(cue)
    return None if host is None or (_describes_a_kind(host) and not kinds) else host


def _among(cue: Any) -> bool:
    """Whether `cue` is the "among" of "among them" or "among others"."""
    nxt = cue.doc[cue.i + 1] if cue.i + 1 < cue.sent.end else None
    return cue.lower_ == AMONG and nxt is not None and nxt.lower_ in AMONG_PRONOUNS


def _members(cue: Any) -> list[Any]:
    """The first member of each coordination a cue introduces. The parser hangs "among
    them" on the first name after it, or makes the name its object."""
    named = [g for g in cue.children if g.dep_ in _MEMBER_DEPS]
    if not _among(cue):
        return named
    # Only names: "among them ones using ..." lists no one.
    named = [g for g in named if g.pos_ == "PROPN"]
    if not named and cue.head.i > cue.i and cue.head.pos_ == "PROPN":
        named = [cue.head]
    return named


def _describes_a_kind(noun: Any) -> bool:
    """Whether `noun` is an argument of a participle modifying a noun (an "acl")."""
    verb = noun.head.head if noun.dep_ == "pobj" else noun.head
    return bool(verb.dep_ == "acl" and verb.tag_ in ("VBN", "VBG"))


def _noun_of(cue: Any) -> Any | None:
    """The general noun before a cue word: its head, or the verb's object before it."""
    if is_general_noun(cue.head) and cue.head.i < cue.i:
        return cue.head
    if _among(cue):  # hung on a name or the verb: the noun is right before it
        prev = _before(cue)
        return prev if prev is not None and is_general_noun(prev) else None
    if cue.dep_ != "prep" or cue.head.pos_ not in ("VERB", "AUX") or cue.lower_ == "like":
        return None  # a "like" on the verb tells how it is done ("like Y, X cut prices")
    prev = _before(cue)
    if prev is None or not is_general_noun(prev) or prev.dep_ not in _MEMBER_DEPS:
        return None
    # The object must be the verb's own (through its preposition), not a deeper noun.
    verb = prev.head.head if prev.dep_ == "pobj" else prev.head
    return prev if verb.i == cue.head.i and prev.right_edge.i == prev.i else None


def _before(tok: Any) -> Any | None:
    """The token before `tok`, past a comma or a dash."""
    i = tok.i - 1
    while i >= tok.sent.start and tok.doc[i].is_punct:
        i -= 1
    return tok.doc[i] if i >= tok.sent.start else None


def _after(tok: Any) -> Any | None:
    """The first token after the phrase `tok` heads, past a comma or a dash."""
    i = tok.right_edge.i + 1
    while i < tok.sent.end and tok.doc[i].is_punct:
        i += 1
    return tok.doc[i] if i < tok.sent.end else None


def is_general_noun(tok: Any) -> bool:
    """A common noun ("ports", "several customers"), not a name."""
    return bool(tok.pos_ == "NOUN")


def listed(noun: Any) -> list[Any]:
    """The heads of the list a general noun's cue introduces (the first of each
    coordination: its conjuncts follow it), or none."""
    if not is_general_noun(noun):
        return []
    cues = [c for c in noun.children if c.dep_ in _CUE_DEPS]
    if (nxt := _after(noun)) is not None and nxt.head.i != noun.i:
        cues.append(nxt)
    return [g for c in cues if (h := _host(c)) is not None and h.i == noun.i
            for g in _members(c)]  # fmt: skip


def list_noun(tok: Any) -> Any | None:
    """The general noun a list member stands for ("Gdansk" in "several ports, including
    Kiel and Gdansk": ports), or None when `tok` is no member of such a list."""
    cue = _cue_above(tok)
    return _host(cue) if cue is not None else None


def example_of_a_kind(tok: Any) -> bool:
    """Whether `tok` is a member of a list that only says what kind of thing a
    participle describes ("minerals refined by companies such as A"): A did nothing."""
    cue = _cue_above(tok)
    host = _host(cue, kinds=True) if cue is not None else None
    return host is not None and _describes_a_kind(host)


def _cue_above(tok: Any) -> Any | None:
    """The word a list member hangs off, up its coordination."""
    t = tok
    for _ in range(len(tok.sent)):
        if t.dep_ != "conj" or t.head.i == t.i:
            break
        t = t.head
    if t.dep_ in _MEMBER_DEPS and t.head.i != t.i:
        cue = t.head
        return cue if not _among(cue) or any(g.i == t.i for g in _members(cue)) else None
    # "among them A and B": the parser hung the cue on the first name.
    return next((c for c in t.children if c.i < t.i and _among(c) and _members(c) == [t]), None)


__all__ = ["EXAMPLE_CUES", "example_of_a_kind", "is_general_noun", "list_noun", "listed"]
