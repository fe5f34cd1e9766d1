"""A second reading of a sentence the small parser read without a finite verb.

spaCy's small English model loses the clause of a sentence it finds too long or too
odd before its verb, and then hangs everything off a noun: "CISA, the US Cybersecurity
and Infrastructure Security Agency, advised developers to downgrade XZ Utils" becomes a
noun phrase; "India, which ships 40 percent of the rice traded, banned exports" too; in
"Medilyte Solutions manufactures all concentrates" the verb is read as a plural noun
that the name compounds into. The same model reads each part right on its own. So
for such a sentence the parts are parsed apart and joined again:

- a leading prepositional phrase ("Through NCEL, ...") and the comma-bounded aside after
  the first noun phrase (an apposition, a relative clause, a participle) are taken out,
  the rest is parsed as the clause, each part on its own, and each part is hung back
  where English puts it (the phrase on the verb, the aside on the noun before it);
- the leading name is read as a pronoun ("It manufactures ...") so its words cannot be
  taken for the verb, then given back its own words.

A reading is taken only when its clause has a finite verb at its root; otherwise the
sentence keeps the parse it had. Sentences with a finite verb are never touched, so a
sentence that parsed well reads exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Closed-class English: the tags of a finite verb, of a relative pronoun, of a participle.
FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
RELATIVE_TAGS = frozenset({"WDT", "WP", "WP$"})
PARTICIPLE_TAGS = frozenset({"VBN", "VBG"})
# What a noun phrase before its aside is made of ("the Finnish utility Kallavesi Voima").
NOUN_PHRASE_POS = frozenset({"PROPN", "NOUN", "DET", "ADJ", "NUM", "PART"})
NAME_JOINING_PUNCT = frozenset({"-", "&", "'", "."})
# What an apposition may start with: "the ...", "a ...", "its ...", a name, a number.
APPOSITION_POS = frozenset({"DET", "PROPN", "NOUN", "ADJ", "NUM", "PRON"})
# The stand-in for a name or a relative pronoun in a part parsed on its own.
PLACEHOLDER = "It"
# Sentences shorter than this are headings and table cells, not clauses to repair.
MIN_TOKENS = 6
# How far into a sentence its leading phrase or its first noun phrase may run.
LEAD_MAX_TOKENS = 8
NOUN_PHRASE_MAX_TOKENS = 12


@dataclass(frozen=True)
class Part:
    """Tokens `start`..`end` (exclusive, doc indices) taken out of the clause or, for a
    name, read as one pronoun. `kind`: lead, relative, participle, apposition, name."""

    start: int
    end: int
    kind: str


def has_finite_root(root: Any) -> bool:
    """Whether a sentence's root is a verb that makes it a clause ("has approved" too)."""
    if root.pos_ not in ("VERB", "AUX"):
        return False
    return root.tag_ in FINITE_TAGS or any(
        c.dep_ in ("aux", "auxpass") and c.tag_ in FINITE_TAGS for c in root.children
    )


def _words(sent: Any) -> list[Any]:
    return [t for t in sent if not t.is_space]


def _lead(words: list[Any]) -> Part | None:
    """'Through NCEL, ...': a preposition's phrase up to a comma, with no verb in it."""
    if not words or words[0].pos_ != "ADP":
        return None
    for t in words[1:LEAD_MAX_TOKENS]:
        if t.pos_ in ("VERB", "AUX"):
            return None
        if t.text == ",":
            return Part(words[0].i, t.i + 1, "lead") if t.i > words[0].i + 1 else None
    return None


def _aside(words: list[Any], first: int) -> Part | None:
    """The comma-bounded part after the noun phrase that opens the clause."""
    opening = None
    for k, t in enumerate(words[first : first + NOUN_PHRASE_MAX_TOKENS], start=first):
        if t.text == ",":
            opening = k
            break
        if t.pos_ not in NOUN_PHRASE_POS and t.text not in NAME_JOINING_PUNCT:
            return None
    if opening is None or opening == first or opening + 2 >= len(words):
        return None
    if not any(t.pos_ in ("PROPN", "NOUN") for t in words[first:opening]):
        return None
    closing = next((k for k in range(opening + 2, len(words)) if words[k].text == ","), None)
    if closing is None:
        return None
    head = words[opening + 1]
    if head.tag_ in RELATIVE_TAGS:
        kind = "relative"
    elif head.tag_ in PARTICIPLE_TAGS:
        kind = "participle"
    elif head.pos_ in APPOSITION_POS:
        kind = "apposition"
    else:
        return None
    return Part(words[opening].i, words[closing].i + 1, kind)


def _name(sent: Any, words: list[Any], first: int) -> Part | None:
    """The named entity that opens the clause, if the tagger found one there, else the
    proper nouns that open it."""
    if first >= len(words):
        return None
    start = words[first].i
    for ent in sent.ents:
        if ent.start == start and ent.end - ent.start < len(words) - first:
            return Part(ent.start, ent.end, "name")
    # No entity there: the proper nouns the tagger found ("CISA, the US ... Agency,").
    run = 0
    while first + run < len(words) and words[first + run].pos_ == "PROPN":
        run += 1
    if 0 < run < len(words) - first:
        return Part(start, words[first + run - 1].i + 1, "name")
    return None


def plans(sent: Any) -> list[list[Part]]:
    """The ways to take a sentence apart, in the order they are tried."""
    words = _words(sent)
    lead = _lead(words)
    first = next((k for k, t in enumerate(words) if lead is None or t.i >= lead.end), 0)
    aside = _aside(words, first)
    name = _name(sent, words, first)
    taken = [p for p in (lead, aside) if p is not None]
    out: list[list[Part]] = []
    for plan in (taken, [*(p for p in (lead,) if p), *(p for p in (name,) if p)],
                 [*taken, *(p for p in (name,) if p)]):  # fmt: skip
        if plan and plan not in out:
            out.append(plan)
    return out


# One token's annotations: head (doc index), dependency, tag, coarse tag, lemma, morphology.
Row = tuple[int, str, str, str, str, str]


def row_of(tok: Any, head: int, dep: str) -> Row:
    return (head, dep, tok.tag_, tok.pos_, tok.lemma_, str(tok.morph))


def _parsed(nlp: Any, words: list[str], spaces: list[bool]) -> Any:
    from spacy.tokens import Doc

    return nlp(Doc(nlp.vocab, words=words, spaces=spaces))


def _clause(nlp: Any, sent: Any, plan: list[Part]) -> tuple[Any, list[int]] | None:
    """The sentence without its parts, parsed; and the doc index each of its words is."""
    out_of = {i for p in plan if p.kind != "name" for i in range(p.start, p.end)}
    names = {p.start: p for p in plan if p.kind == "name"}
    words: list[str] = []
    spaces: list[bool] = []
    where: list[int] = []
    skip_to = -1
    for t in _words(sent):
        if t.i in out_of or t.i < skip_to:
            continue
        if t.i in names:
            name = names[t.i]
            skip_to = name.end
            last = t.doc[name.end - 1]
            words.append(PLACEHOLDER)
            spaces.append(bool(last.whitespace_))
            where.append(last.i)
            continue
        words.append(t.text)
        spaces.append(bool(t.whitespace_))
        where.append(t.i)
    if not words:
        return None
    clause = _parsed(nlp, words, spaces)
    roots = [t for t in clause if t.head.i == t.i]
    if len(roots) != 1 or not has_finite_root(roots[0]):
        return None
    return clause, where


def _part_rows(nlp: Any, doc: Any, part: Part, anchor: int, rows: dict[int, Row]) -> None:
    """A taken-out part parsed on its own and hung on `anchor`; its commas on it too."""
    inner = [doc[i] for i in range(part.start, part.end) if not doc[i].is_space]
    commas = [t for t in inner if t.text == "," and t.i in (part.start, part.end - 1)]
    body = [t for t in inner if t not in commas]
    words = [t.text for t in body]
    if part.kind == "relative":
        words[0] = PLACEHOLDER  # "which ships ..." read as the clause "It ships ..."
    parsed = _parsed(nlp, words, [bool(t.whitespace_) for t in body])
    roots = [t for t in parsed if t.head.i == t.i]
    top = body[roots[0].i].i
    dep = {"lead": "prep" if parsed[roots[0].i].pos_ == "ADP" else "npadvmod",
           "relative": "relcl", "participle": "acl", "apposition": "appos"}[part.kind]  # fmt: skip
    for k, tok in enumerate(parsed):
        original = body[k]
        if tok.head.i == tok.i:
            head, arc = (anchor, dep) if k == roots[0].i else (top, "dep")
        else:
            head, arc = body[tok.head.i].i, tok.dep_
        # A relative pronoun keeps its own tags; only its place in the clause is new.
        source = original if part.kind == "relative" and k == 0 else tok
        rows[original.i] = row_of(source, head, arc)
    for c in commas:
        rows[c.i] = row_of(c, anchor, "punct")


def reread(nlp: Any, sent: Any, plan: list[Part]) -> dict[int, Row] | None:
    """Every token of `sent` annotated by the reading of `plan`, or None if its clause
    still has no finite verb."""
    found = _clause(nlp, sent, plan)
    if found is None:
        return None
    clause, where = found
    doc = sent.doc
    rows: dict[int, Row] = {}
    root = next(where[t.i] for t in clause if t.head.i == t.i)
    name_ends = {p.end - 1 for p in plan if p.kind == "name"}  # where a placeholder stands
    for t in clause:
        head, dep = (where[t.i], "ROOT") if t.head.i == t.i else (where[t.head.i], t.dep_)
        source = doc[where[t.i]] if t.text == PLACEHOLDER and where[t.i] in name_ends else t
        rows[where[t.i]] = row_of(source, head, dep)
    for part in plan:
        if part.kind == "name":
            last = part.end - 1
            for i in range(part.start, last):
                inside = part.start <= doc[i].head.i <= last and doc[i].head.i != i
                rows[i] = row_of(doc[i], doc[i].head.i if inside else last,
                               doc[i].dep_ if inside else "compound")  # fmt: skip
        else:
            anchor = root if part.kind == "lead" else _noun_before(rows, doc, part.start)
            _part_rows(nlp, doc, part, anchor, rows)
    for t in sent:
        if t.is_space:  # as the first parse hung it: on the token before
            rows[t.i] = row_of(t, t.i - 1 if t.i > sent.start else t.i + 1, "dep")
    return rows


def _noun_before(rows: dict[int, Row], doc: Any, start: int) -> int:
    """The head of the noun phrase an aside follows: the word before its comma, or what
    that word compounds into."""
    at = start - 1
    while at > 0 and doc[at].is_space:
        at -= 1
    for _ in range(NOUN_PHRASE_MAX_TOKENS):
        head, dep = rows.get(at, (at, "ROOT"))[:2]
        if dep not in ("compound", "flat") or head == at:
            break
        at = head
    return at


def repaired(nlp: Any, doc: Any) -> Any:
    """`doc` with every sentence that has no finite verb read again, where a reading
    finds one; `doc` itself when none is."""
    changed: dict[int, Row] = {}
    for sent in doc.sents:
        if len(_words(sent)) < MIN_TOKENS or has_finite_root(sent.root):
            continue
        for plan in plans(sent):
            rows = reread(nlp, sent, plan)
            if rows is not None and len(rows) == len(sent):
                changed.update(rows)
                break
    return rebuilt(doc, changed)


def rebuilt(doc: Any, changed: dict[int, Row]) -> Any:
    """`doc` with the tokens of `changed` annotated anew; `doc` itself when none is."""
    if not changed:
        return doc
    from spacy.tokens import Doc

    rows = [changed.get(t.i) or row_of(t, t.head.i, t.dep_) for t in doc]
    ents = [f"{t.ent_iob_}-{t.ent_type_}" if t.ent_iob_ in ("B", "I") else "O" for t in doc]
    return Doc(doc.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc],
               heads=[r[0] for r in rows], deps=[r[1] for r in rows], tags=[r[2] for r in rows],
               pos=[r[3] for r in rows], lemmas=[r[4] for r in rows],
               morphs=[r[5] for r in rows], ents=ents)  # fmt: skip


__all__ = ["Part", "Row", "has_finite_root", "plans", "rebuilt", "repaired", "reread", "row_of"]
