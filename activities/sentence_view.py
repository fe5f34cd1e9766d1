"""A parsed sentence with its entity mentions: which phrase names which entity.

Pure over a spaCy sentence. `entities_at` reads the entities a phrase names (the
entity itself, coordinated ones, an entity compounded into a common noun, an
apposition of the same kind); `concept_at` a noun phrase that names no entity ("raw
lithium ore") as a concept; `antecedent` what "it" or "the company" stands for; an
event or policy noun owned by an entity ("China's export restrictions") is a phrase
of its own.
"""

from __future__ import annotations

from typing import Any

from activities.nlp import PLACE_WORDS, Mention
from activities.relation_lexicon import EVENT_NOUNS, EXPORT_NOUNS, GENERIC_NOUNS


def phrase_mention(span: Any, family: str, typ: str) -> Mention:
    """A noun phrase of the text as a mention of its own (no DKG asset yet)."""
    return Mention(
        text=span.text,
        name=span.text,
        start=span.start_char,
        end=span.end_char,
        family=family,
        type=typ,
        ual=None,
        origin="phrase",
    )


class SentenceView:
    """A parsed sentence with each token's owning mention."""

    def __init__(self, sent: Any, mentions: list[Mention], before: list[Mention]) -> None:
        self.sent = sent
        self.doc = sent.doc
        self.mentions = mentions
        self.before = before
        self.owner: dict[int, Mention] = {}
        for m in mentions:
            span = self.doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is None:
                continue
            for tok in span:
                self.owner.setdefault(tok.i, m)

    def entities_at(self, tok: Any, via_noun: bool = True) -> list[Mention]:
        """Entities a phrase headed by `tok` names: itself, its conjuncts and appositions."""
        out: list[Mention] = []
        seen: set[int] = set()
        stack = [tok]
        while stack:
            t = stack.pop()
            if t.i in seen:
                continue
            seen.add(t.i)
            m = self.owner.get(t.i)
            if m is not None:
                if m not in out:
                    out.append(m)
            elif via_noun and self._event_phrase(t) is not None:
                # "China's export restrictions": the policy, not China, is what acts.
                out.append(self._event_phrase(t))  # type: ignore[arg-type]
            elif via_noun:
                # "the Bikita mine", "Albemarle's plant": an entity compounded, named or
                # possessing a common noun head stands for the phrase.
                for child in t.children:
                    if child.dep_ in ("compound", "nmod", "amod", "poss") and child.i in self.owner:
                        stack.append(child)
            for child in t.children:
                # Coordination spreads the relation; an apposition only when it is itself
                # an entity ("Uranium One, a Rosatom subsidiary" is not Rosatom).
                if child.dep_ == "conj" or (
                    child.dep_ == "appos"
                    and child.i in self.owner
                    and (m is None or self.owner[child.i].family == m.family)
                ):
                    stack.append(child)
        return out

    def antecedent(self, verb: Any) -> list[Mention]:
        """What "it" / "the company" means: the subject of a verb this one depends on
        ("X said it would ..."), else the last organisation named before it."""
        t = verb
        for _ in range(4):
            if t.head is t:
                break
            t = t.head
            subj = [m for c in t.children if c.dep_ in ("nsubj", "nsubjpass")
                    for m in self.entities_at(c)]  # fmt: skip
            if subj:
                return subj[:1]
        earlier = [m for m in [*self.before, *self.mentions]
                   if m.start < verb.idx and m.family in ("organization", "person")]  # fmt: skip
        return earlier[-1:]

    def _event_phrase(self, head: Any) -> Mention | None:
        """'Chile's royalty reform': an event or policy noun owned by an entity, as a phrase."""
        if head.pos_ != "NOUN" or head.lemma_.lower() not in EVENT_NOUNS:
            return None
        owners = [c for c in head.children if c.dep_ in ("poss", "compound", "nmod", "amod")
                  and c.i in self.owner]  # fmt: skip
        if not owners:
            return None
        first = min(t.i for t in head.subtree if t.i <= head.i and t.dep_ not in ("det", "prep"))
        return phrase_mention(self.doc[first : head.i + 1], "event", "Event")

    def concept_at(self, tok: Any) -> list[Mention]:
        """A noun phrase with no entity as a concept object: 'raw lithium ore'. Goods
        coordinated at the head ('gallium and germanium') are one concept each; coordinated
        modifiers of one head ('lithium extraction, refining and cathode technologies')
        stay one phrase."""
        heads = [tok]
        while (nxt := next((c for c in heads[-1].children if c.dep_ == "conj"), None)) is not None:
            if nxt.pos_ not in ("NOUN", "PROPN") or nxt.i in self.owner:
                break
            heads.append(nxt)
        # Singular conjuncts before a plural last one share its head ("extraction, refining
        # and cathode technologies" are three technologies, not "refining" on its own).
        shared = heads[-1].tag_ in ("NNS", "NNPS") and any(
            h.tag_ not in ("NNS", "NNPS") for h in heads[:-1]
        )
        if len(heads) > 1 and not shared and heads[-1].i == max(t.i for t in tok.subtree):
            return [m for h in heads for m in self._concept(h, split=True)]
        return self._concept(tok, split=False)

    def _concept(self, tok: Any, split: bool) -> list[Mention]:
        core: set[int] = set()
        stack = [tok]
        while stack:
            t = stack.pop()
            if t.i in core:
                continue
            core.add(t.i)
            stack.extend(
                c for c in t.children
                if c.dep_ in ("compound", "amod", "nmod")
                or (c.dep_ == "punct" and c.text in ("-", "–"))  # "lithium-ion"
                or (not (split and t is tok) and (
                    c.dep_ in ("conj", "cc") or (c.dep_ == "punct" and c.text == ",")))
            )  # fmt: skip
        if tok.i in self.owner:
            return []
        ordered = sorted(core)
        if ordered != list(range(ordered[0], ordered[-1] + 1)):
            return []  # a broken phrase: better none than a wrong one
        while ordered and (
            self.doc[ordered[0]].pos_ in ("DET", "PRON", "NUM", "PART", "CCONJ", "PUNCT")
        ):
            ordered.pop(0)
        while ordered and self.doc[ordered[-1]].pos_ in ("CCONJ", "PUNCT"):
            ordered.pop()
        if not ordered:
            return []
        head = self.doc[ordered[-1]]
        lemma = head.lemma_.lower()
        if head.i in self.owner:
            return []  # the phrase ends in an entity: it is that entity, not a concept
        if head.pos_ not in ("NOUN", "PROPN") or lemma in GENERIC_NOUNS or lemma in EXPORT_NOUNS:
            return []
        if lemma in PLACE_WORDS:
            return []
        return [phrase_mention(self.doc[ordered[0] : ordered[-1] + 1], "concept", "DefinedTerm")]
