"""A parsed sentence with its entity mentions: which phrase names which entity.

Pure over a spaCy sentence. `entities_at` reads the entities a phrase names (the
entity itself, coordinated ones, an entity compounded into a common noun, an
apposition of the same kind, the named members of a general noun's list: "ports,
including Kiel"); `concept_at` a noun phrase that names no entity ("raw lithium ore")
as a concept; `antecedent` what "it" or "the company" stands for; an event or policy
noun owned by an entity ("China's export restrictions") is a phrase of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mining.list_members import listed
from mining.mentions import Mention
from mining.nlp import PLACE_WORDS
from mining.parse_paths import HYPHENS, REL_PRONOUN_TAGS
from mining.references import TOPIC_PRONOUNS, continued_topic, sentence_subject
from mining.relation_lexicon import (
    DEFINITE_DETS,
    EVENT_NOUNS,
    EXPORT_NOUNS,
    GENERIC_NOUNS,
    GOVERNMENT_REFS,
    PRONOUNS,
    REFERENT_FAMILIES,
    RESTRICTION_NOUNS,
)

# Modifiers that make an event noun name a particular event ("an outbreak of swine fever
# in Jiangsu", "China's export controls"), unlike a bare "the outbreak".
_EVENT_MODIFIERS = frozenset({"compound", "amod", "poss", "nmod", "prep"})
# Prepositions whose phrase belongs to an event's name.
_EVENT_PREPS = frozenset({"of", "for", "on", "in", "against", "to", "with", "over"})


def _event_kind(lemma: str) -> str:
    return "restriction" if lemma in RESTRICTION_NOUNS else lemma


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


# How many clauses up "it" looks for the subject it stands for ("X said that it had ...":
# one; "X said it expected that its plant would ...": two).
ANTECEDENT_CLAUSES = 3


class SentenceView:
    """A parsed sentence with each token's owning mention."""

    def __init__(self, sent: Any, mentions: list[Mention], before: list[Mention]) -> None:
        self.sent = sent
        self.doc = sent.doc
        self.mentions = mentions
        self.before = before
        self.owner: dict[int, Mention] = {}
        self._resolving: set[int] = set()
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
            members = listed(t) if m is None and via_noun else []
            if m is not None:
                if m not in out:
                    out.append(m)
            elif any(g.i in self.owner for g in members):
                # "several ports, including Kiel and Gdansk": the named members stand for
                # the general noun (mining/list_members.py).
                stack.extend(members)
            elif via_noun and self._event_phrase(t) is not None:
                # "China's export restrictions": the policy, not China, is what acts.
                out.append(self._event_phrase(t))  # type: ignore[arg-type]
            elif via_noun and (earlier := self.event_referent(t)) is not None:
                # "The outbreak has hit X": the outbreak the text described before.
                out.append(earlier)
            elif via_noun and (country := self.government_of(t)) is not None:
                out.append(country)
            elif via_noun and (same := self.kind_referent(t)) is not None:
                out.append(same)  # "Biogen co-sponsors the study"
            elif via_noun and t.dep_ == "nsubjpass" and t.lower_ in PRONOUNS:
                # "X said it had been affected by Y": the passive's "it" is X.
                out.extend(m for m in self.antecedent(t.head) if m not in out)
            elif via_noun and not self._named_by_apposition(t):
                # "the Bikita mine", "Albemarle's plant": an entity compounded, named or
                # possessing a common noun head stands for the phrase. Not when an
                # apposition names the thing itself: "Nordmark's new source, Shandong
                # Ruiyang" is Shandong Ruiyang, not Nordmark.
                for child in t.children:
                    if child.dep_ in ("compound", "nmod", "amod", "poss") and child.i in self.owner:
                        stack.append(child)
            for child in t.children:
                # Coordination spreads the relation; an apposition only when it is itself
                # an entity ("Uranium One, a Rosatom subsidiary" is not Rosatom), and not a
                # place after a place: "a plant in Columbus, Ohio" is in Columbus, which
                # Ohio only locates.
                if child.dep_ == "conj" or (
                    child.dep_ == "appos"
                    and child.i in self.owner
                    and (m is None or self.owner[child.i].family == m.family)
                    and not (m is not None and m.family == "place")
                ):
                    stack.append(child)
        return out

    def _named_by_apposition(self, tok: Any) -> bool:
        return any(c.dep_ == "appos" and c.i in self.owner for c in tok.children)

    def antecedent(
        self, verb: Any, keep: Callable[[Mention], bool] | None = None
    ) -> list[Mention]:
        """What "it" / "the company" means: the subject of a verb this one depends on
        ("X said it would ..."), else the last organisation named before it. With `keep`,
        only a subject it accepts: "its" of a site is an owner, so in "X confirmed that
        H5N1 had been detected at its facility" it is X, not the virus.

        A subject that is itself a pronoun asks this again; a question already being
        answered for the same token answers nothing, so the two never recurse forever."""
        if verb.i in self._resolving:
            return []
        self._resolving.add(verb.i)
        try:
            return self._antecedent(verb, keep or (lambda m: True))
        finally:
            self._resolving.discard(verb.i)

    def _antecedent(self, verb: Any, keep: Callable[[Mention], bool]) -> list[Mention]:
        t = verb
        clauses = 0
        # Up through the phrases `verb` is part of, however long ("its Sentinel mine" in
        # "its Kansanshi mine near Solwezi and its Sentinel mine had run"), to at most
        # `ANTECEDENT_CLAUSES` verbs. By index: spaCy makes a new Token on every `.head`.
        for _ in range(len(verb.sent)):
            if t.head.i == t.i or clauses >= ANTECEDENT_CLAUSES:
                break
            t = t.head
            clauses += t.pos_ in ("VERB", "AUX")
            # A subject phrase holding the pronoun is not what it refers to ("its mine
            # had run": not the mine).
            subj = [m for c in t.children if c.dep_ in ("nsubj", "nsubjpass")
                    and not c.left_edge.i <= verb.i <= c.right_edge.i
                    for m in self.entities_at(c) if keep(m)]  # fmt: skip
            if subj:
                return subj[:1]
            if t.dep_ == "relcl" and any(
                c.dep_ in ("nsubj", "nsubjpass") and c.tag_ in REL_PRONOUN_TAGS for c in t.children
            ):
                # Not past a relative clause into the clause of the noun it describes: in
                # "Y supplies it to X, which said it had been affected", "it" is X (what
                # "which" stands for), never Y. ("water to turn its turbines" has no
                # relative pronoun: its clause is the one around it.)
                if _restrictive(t) and _unnamed_noun(self, t.head):
                    # "Any software that bundles its own copy": "its" is the software's,
                    # which names nothing, so nothing named before owns the copy. (After
                    # a comma the parser often hangs the clause on the wrong noun: "X, a
                    # maker of board, which said it ..." on the board.)
                    return []
                break
        topic = self._topic_before(verb)
        if topic is not None and keep(topic):
            return [topic]
        found = self._salient_before(
            verb.idx, lambda m: m.family in ("organization", "person") and keep(m)
        )
        return [found] if found else []

    def _topic_before(self, tok: Any) -> Mention | None:
        """The entity the sentence before was about, when `tok` (or the subject of verb
        `tok`) is an "it"/"its" that opens its sentence (`references.continued_topic`)."""
        if tok.lower_ not in TOPIC_PRONOUNS:
            subjects = (c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass"))
            tok = next((c for c in subjects if c.lower_ in TOPIC_PRONOUNS), tok)
        subject = continued_topic(tok)
        if subject is None:
            return None
        return next((m for m in self.before if m.start <= subject.idx < m.end), None)

    def _salient_before(self, at: int, keep: Callable[[Mention], bool]) -> Mention | None:
        """Of the mentions `keep` accepts in the nearest sentence before character `at`
        that has any, its subject, else the last one: after "Ganfeng supplies hydroxide to
        Tesla.", "its plants" are Ganfeng's. In the pronoun's own sentence, the last one."""
        last = self._last_before(at, keep)
        if last is None or last.start >= self.sent.start_char:
            return last
        named = self.doc.char_span(last.start, last.end, alignment_mode="expand")
        if named is None:
            return last
        sent = named.sent
        same = [m for m in self.before if sent.start_char <= m.start < sent.end_char and keep(m)]
        for m in same:
            span = self.doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is not None and sentence_subject(span.root):
                return m
        return last

    def _last_before(self, at: int, keep: Callable[[Mention], bool]) -> Mention | None:
        """The last mention before character `at` (earlier sentences included) that `keep`
        accepts."""
        earlier = [m for m in [*self.before, *self.mentions] if m.start < at and keep(m)]
        return earlier[-1] if earlier else None

    def event_referent(self, tok: Any) -> Mention | None:
        """What a bare definite event noun ("the outbreak", "the controls") refers to: the
        last event of the same kind the text named with its particulars before it."""
        if not _is_bare_definite(tok) or tok.lemma_.lower() not in EVENT_NOUNS:
            return None
        kind = _event_kind(tok.lemma_.lower())
        for u in reversed(self.doc[: tok.i]):
            if u.pos_ != "NOUN" or _event_kind(u.lemma_.lower()) != kind:
                continue
            if u.i in self.owner:
                return self.owner[u.i]
            if _is_bare_definite(u) or not any(c.dep_ in _EVENT_MODIFIERS for c in u.children):
                continue
            return self._event_span(u)
        return None

    def cause_phrase(self, tok: Any) -> Mention | None:
        """An event noun with its particulars and no entity behind it ("the licensing
        delays", "attacks on merchant ships"), read as a cause."""
        if tok.pos_ != "NOUN" or tok.lemma_.lower() not in EVENT_NOUNS or tok.i in self.owner:
            return None
        if not any(c.dep_ in _EVENT_MODIFIERS for c in tok.children):
            return None
        return self._event_span(tok)

    def _event_span(self, head: Any) -> Mention:
        """The named event a head noun and its modifiers make, articles left out."""
        preps = [c for c in head.children if c.dep_ == "prep" and c.lemma_.lower() in _EVENT_PREPS]
        first = modified_from(head)
        last = max([head.i, *(t.i for c in preps for t in c.subtree)])
        while last > head.i and self.doc[last].pos_ in ("PUNCT", "CCONJ"):
            last -= 1
        return phrase_mention(self.doc[first : last + 1], "event", "Event")

    def kind_referent(self, tok: Any) -> Mention | None:
        """"the study" / "the trial": the last entity of that kind named before it."""
        families = REFERENT_FAMILIES.get(tok.lemma_.lower())
        if families is None or not _is_bare_definite(tok):
            return None
        return self._last_before(tok.idx, lambda m: m.family in families)

    def government_of(self, tok: Any) -> Mention | None:
        """"the government" / "the authorities": the last country named before it."""
        if tok.lemma_.lower() not in GOVERNMENT_REFS or not _is_bare_definite(tok):
            return None
        return self._last_before(tok.idx, lambda m: m.type == "Country")

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

    def concept_of(self, tok: Any) -> list[Mention]:
        """The concept `tok`'s own noun phrase names, nothing coordinated with it."""
        return self._concept(tok, split=True)

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
                or (c.dep_ == "punct" and c.text in HYPHENS)  # "lithium-ion"
                or _hyphened(c, t)  # "grain-oriented": one word, however parsed
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
        if len(ordered) == 1 and head.tag_ == "NN" and any(
            c.dep_ == "det" and c.lower_ in ("a", "an") for c in head.children
        ):
            return []  # "made an offer": one thing done, not goods or a kind of thing
        return [phrase_mention(self.doc[ordered[0] : ordered[-1] + 1], "concept", "DefinedTerm")]


def _hyphened(word: Any, head: Any) -> bool:
    """Whether `word` is joined to `head` by a hyphen ("grain" in "grain-oriented")."""
    return word.i + 2 == head.i and word.doc[word.i + 1].text in HYPHENS


def modified_from(head: Any) -> int:
    """Where the phrase of a noun and its left modifiers ("China's export", "battery-grade")
    starts, articles and numbers left out."""
    left = [t.i for c in head.children if c.dep_ in ("compound", "amod", "poss", "nmod")
            for t in c.subtree]  # fmt: skip
    first = min([head.i, *left])
    while first < head.i and head.doc[first].pos_ in ("DET", "PRON", "NUM", "PUNCT"):
        first += 1
    return first


def _is_bare_definite(tok: Any) -> bool:
    """'the outbreak', 'these controls': a determiner and nothing else before the noun."""
    return (
        tok.pos_ == "NOUN"
        and _has_definite_det(tok)
        and not any(c.dep_ in _EVENT_MODIFIERS for c in tok.children)
    )


def _unnamed_noun(view: SentenceView, tok: Any) -> bool:
    """A noun phrase naming no entity and pointing back to none: "any software", "a
    supplier", "firms" (not "the company", which may mean one named before)."""
    return not view.entities_at(tok) and not _has_definite_det(tok)


def _has_definite_det(tok: Any) -> bool:
    """'the', 'this', 'these', 'those' on the noun."""
    return any(c.dep_ == "det" and c.lower_ in DEFINITE_DETS for c in tok.children)


def _restrictive(clause: Any) -> bool:
    """A relative clause with no comma before it: "software that bundles ..."."""
    first = clause.left_edge
    return first.i == 0 or first.doc[first.i - 1].text != ","
