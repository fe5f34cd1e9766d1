"""Relations the parse states between mentions no typed rule related, named by the
clause's own words (mining/open_relations.py reads them), with "it", "they" and "the
company" standing for the parties they refer back to. Pure over a parsed sentence.
"""

from __future__ import annotations

from typing import Any

from mining.mentions import Mention
from mining.neighbour_relations import relations_in_sentence
from mining.nlp import ORG_WORDS
from mining.parse_paths import REPORTED_SLOT
from mining.predicates import RELATED_TO
from mining.references import referent
from mining.relation_parts import verb_rule
from mining.relations import Relation
from mining.sentence_view import SentenceView

REFERRING_PRONOUNS = frozenset({"it", "its", "they", "their", "them", "he", "his", "she", "her"})


def open_statements(
    sentence: Any, mentions: list[Mention], before: list[Mention], relations: list[Relation]
) -> list[Relation]:
    """Relations the parse states between mentions no typed rule related, named by the
    clause's own words and typed where the verb's lemma and slot fit the vocabulary. A
    pronoun ("it signed", "its mine") stands for the party it refers back to."""
    doc = sentence.doc
    ends: list[tuple[int, int, Mention]] = []
    for m in mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is not None:
            ends.append((span.start, span.end, m))
    view = SentenceView(sentence, mentions, before)
    # Who a pronoun stands for with those coordinated with it ("Intel and Nvidia told
    # reporters they had ...": they are both), so no member is related to the group.
    groups: dict[int, set[str]] = {}
    for tok in sentence:
        if tok.lower_ in REFERRING_PRONOUNS and tok.pos_ == "PRON" and tok.i not in view.owner:
            # Not the phrase the pronoun itself is part of ("its Kansanshi mine").
            own = list(tok.head.subtree) if tok.dep_ == "poss" else [tok]
            lo, hi = min(t.idx for t in own), max(t.idx + len(t) for t in own)
            meant = [m for m in view.antecedent(tok) if not (lo <= m.start and m.end <= hi)]
            if meant:
                ends.append((tok.i, tok.i + 1, meant[0]))
                groups[tok.i] = {m.name for m in _with_conjuncts(view, meant[0])}
    named = [*before, *mentions]
    for tok in sentence:
        if tok.i not in view.owner and (meant_by := referent(tok, named, ORG_WORDS)) is not None:
            ends.append((tok.i, tok.i + 1, meant_by))
    ends.sort(key=lambda e: e[0])
    spans: list[tuple[int, int]] = []
    kept: list[Mention] = []
    group_at: dict[int, set[str]] = {}
    for start, end, m in ends:
        if not spans or start >= spans[-1][1]:
            if start in groups:
                group_at[len(spans)] = groups[start]
            spans.append((start, end))
            kept.append(m)
    related = {frozenset((r.subject.name, r.object.name)) for r in relations
               if r.predicate != RELATED_TO}  # fmt: skip
    # What a typed relation carries as its goods ("supplies hydroxide to Tesla") is stated.
    related |= {frozenset((r.subject.name, r.goods.name)) for r in relations if r.goods}
    out: list[Relation] = []
    found = relations_in_sentence(doc, spans, sentence.start, sentence.end)
    locating = _locating_places(doc, spans, kept)
    # What a speaker said of a party ("said its supplier, X, had cut ...") yields to what
    # the sentence states between the two otherwise ("X is its supplier").
    for rel in sorted(found, key=lambda r: r.slot == REPORTED_SLOT):
        subj, obj = kept[rel.subject], kept[rel.object]
        if subj.name == obj.name or frozenset((subj.name, obj.name)) in related:
            continue
        if obj.name in group_at.get(rel.subject, ()) or subj.name in group_at.get(rel.object, ()):
            continue  # a member of the group a pronoun stands for
        if locating.get(rel.object, rel.subject) != rel.subject or (
            locating.get(rel.subject, rel.object) != rel.object
        ):
            continue  # "a fab in Hsinchu, Taiwan": Taiwan locates Hsinchu, nothing else
        # The lexicon types a verb's own slot ("runs X", "buys from X"), not an object
        # reached through a noun of its phrase ("runs a campaign in X").
        direct = rel.verb and rel.predicate in (rel.verb, f"{rel.verb} {rel.slot}")
        typed = verb_rule(rel.verb, rel.slot, obj.family) if direct else None
        predicate = rel.predicate
        if typed is not None:
            predicate = typed[0]
            subj, obj = (obj, subj) if typed[1] else (subj, obj)
        related.add(frozenset((subj.name, obj.name)))
        method = "reported" if rel.slot == REPORTED_SLOT else "open"
        out.append(Relation(subj, predicate, obj, rel.negated, rel.hedged, method, rel.predicate))
    return out


def _locating_places(doc: Any, spans: list[tuple[int, int]], kept: list[Mention]) -> dict[int, int]:
    """{place: the place it is apposed to}: in "a plant in Columbus, Ohio" Ohio only says
    where Columbus is, so its one relation is to Columbus."""
    out: dict[int, int] = {}
    for k, (start, end) in enumerate(spans):
        if kept[k].family != "place":
            continue
        root = doc[start:end].root
        if root.dep_ != "appos":
            continue
        for j, (a, b) in enumerate(spans):
            if j != k and kept[j].family == "place" and a <= root.head.i < b:
                out[k] = j
    return out


def _with_conjuncts(view: SentenceView, m: Mention) -> list[Mention]:
    """`m` and the mentions coordinated with it where it is named."""
    span = view.doc.char_span(m.start, m.end, alignment_mode="expand")
    if span is None:
        return [m]
    return [m, *(n for c in span.root.conjuncts for n in view.entities_at(c, via_noun=False))]


def named_over_generic(relations: list[Relation], named: list[Relation]) -> list[Relation]:
    """The relations, where a pair that had only `relatedTo` is stated by its own words."""
    better = {frozenset((r.subject.name, r.object.name)) for r in named}
    kept = [r for r in relations if r.predicate != RELATED_TO
            or frozenset((r.subject.name, r.object.name)) not in better]  # fmt: skip
    return kept + named


__all__ = ["REFERRING_PRONOUNS", "named_over_generic", "open_statements"]
