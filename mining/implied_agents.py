"""The agent a passive leaves out, when the same text named it doing the same act before.

"The competition authority, ACM, has fined four installers ... Brabant Lichttechniek was
fined 9.8 million euros": the second sentence's fine is the first one's, so ACM fined
Brabant Lichttechniek. Reports name an act's actor once and then list what it did to
whom in the passive. A passive with no agent of its own takes the actor of the nearest
earlier active clause of the same verb in the same text (its headline and lead-in
included) whose subject is a named party. Pure over the parse; no verb is listed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mining.mentions import Mention
from mining.parse_paths import is_hedged, is_negated, is_passive
from mining.relation_parts import Relation

# Who can act: a named organisation, government or person (a place acts as its state).
ACTOR_FAMILIES = frozenset({"organization", "place", "person"})
METHOD = "implied"


@dataclass(frozen=True)
class Act:
    """An active clause of verb `lemma` (written `form`) at character `at` whose subject
    is `actor`."""

    at: int
    lemma: str
    form: str
    actor: Mention

    def same_act(self, verb: Any) -> bool:
        """Whether a passive's participle is this act's verb: by lemma, or by the written
        participle where the lemmatizer reads one form oddly ("fined" -> "fin")."""
        return self.lemma == verb.lemma_.lower() or self.form == verb.lower_


def _named(tok: Any, mentions: list[Mention]) -> Mention | None:
    """The mention a token lies in, or the one its apposition names ("the authority,
    ACM, has fined")."""
    for t in (tok, *(c for c in tok.children if c.dep_ == "appos")):
        for m in mentions:
            if m.start <= t.idx < m.end:
                return m
    return None


def acts(doc: Any, mentions: list[Mention]) -> list[Act]:
    """The active clauses of a parsed text whose subject is a named party, in order."""
    out: list[Act] = []
    for tok in doc:
        if tok.pos_ != "VERB" or is_passive(tok) or is_negated(tok):
            continue
        for subject in (c for c in tok.children if c.dep_ == "nsubj"):
            actor = _named(subject, mentions)
            if actor is not None and actor.family in ACTOR_FAMILIES:
                out.append(Act(tok.idx, tok.lemma_.lower(), tok.lower_, actor))
    return out


def implied_agents(sent: Any, inside: list[Mention], earlier: list[Act]) -> list[Relation]:
    """Relations from the actor of an earlier act to the named subject of a passive of
    the same verb in `sent` that names no agent ("X was fined" after "ACM fined ...")."""
    out: list[Relation] = []
    for tok in sent:
        if tok.pos_ != "VERB" or not any(c.dep_ == "auxpass" for c in tok.children):
            continue
        if any(c.dep_ == "agent" for c in tok.children):
            continue
        before = [a for a in earlier if a.at < tok.idx and a.same_act(tok)]
        if not before:
            continue
        actor, lemma = before[-1].actor, before[-1].lemma
        for patient_tok in (c for c in tok.children if c.dep_ == "nsubjpass"):
            patient = _named(patient_tok, inside)
            if patient is None:
                continue
            for m in [patient, *gapped(tok, patient, inside)]:
                if m.name != actor.name:
                    out.append(Relation(actor, lemma, m, is_negated(tok), is_hedged(tok), METHOD))
    return out


# How English says a party did what the clause before says another did (closed class):
# "Z followed (suit)", "Z did the same", "Z did likewise".
_SAME_ACT = {"follow": frozenset({"suit"}), "do": frozenset({"same", "likewise", "so"})}
# What may hang on such a verb without giving it an act of its own: the time it was done.
_TIME_ENTS = frozenset({"DATE", "TIME"})
_BARE_DEPS = frozenset({"nsubj", "aux", "neg", "punct", "cc", "conj", "advmod", "npadvmod",
                        "mark"})  # fmt: skip


def _repeats_an_act(verb: Any) -> bool:
    """Whether `verb` says its subject did the act said before, and nothing more: "Z
    followed on 21 October", never "Z followed with a ban of its own" or "Z followed Y"."""
    said = _SAME_ACT.get(verb.lemma_.lower())
    # A clause of its own: the sentence's, a coordinated one, or one the parser hung on a
    # clause after it ("Z followed on 21 October; both applied ...": a ccomp of "applied").
    own = verb.dep_ in ("ROOT", "conj", "parataxis") or (
        verb.dep_ == "ccomp" and verb.head.i > verb.i
    )
    if said is None or verb.pos_ not in ("VERB", "AUX") or not own:
        return False
    marked = verb.lemma_.lower() != "do"  # "did" alone says nothing
    for c in verb.children:
        if c.dep_ in ("dobj", "advmod") and c.lemma_.lower() in said:
            marked = True
        elif c.dep_ == "prep":
            if not all(g.ent_type_ in _TIME_ENTS for g in c.children if g.dep_ == "pobj"):
                return False
        elif c.dep_ not in _BARE_DEPS:
            return False
    return marked


def same_acts(sent: Any, inside: list[Mention], relations: list[Relation]) -> list[Relation]:
    """'The Swedish Transport Agency fined Baltic Ferry Lines on 3 May, and the Danish
    Maritime Authority followed on 9 June': the follower did the same act to the same
    parties. What the sentence says before the follower between its first party (the
    subject of the clause followed, else the party it names first) and another party is
    said of the follower too, in the first party's slot."""
    out: list[Relation] = []
    for verb in sent:
        if not _repeats_an_act(verb):
            continue
        subjects = [c for c in verb.children if c.dep_ == "nsubj" and c.i < verb.i]
        follower = _named(subjects[-1], inside) if subjects else None
        if follower is None or follower.family not in ACTOR_FAMILIES:
            continue
        earlier = [r for r in relations if r.object.end <= follower.start
                   and r.subject.end <= follower.start and not r.hedged]  # fmt: skip
        if not earlier:
            continue
        first = _followed_party(verb, inside)
        if first is None:
            first = min((m for r in earlier for m in (r.subject, r.object)), key=lambda m: m.start)
        if first.family not in ACTOR_FAMILIES or first.name == follower.name:
            continue
        for r in earlier:
            ends = (r.subject.name, r.object.name)
            if first.name not in ends or follower.name in ends:
                continue
            leads = r.subject.name == first.name
            subj, obj = (follower, r.object) if leads else (r.subject, follower)
            out.append(replace(r, subject=subj, object=obj, negated=is_negated(verb),
                               hedged=is_hedged(verb), method=METHOD))  # fmt: skip
    return out


def _followed_party(verb: Any, inside: list[Mention]) -> Mention | None:
    """The named subject of the clause `verb` is coordinated with, if the parse says so."""
    if verb.dep_ != "conj":
        return None
    subjects = [c for c in verb.head.children if c.dep_ == "nsubj"]
    return _named(subjects[0], inside) if subjects else None


def gapped(verb: Any, subject: Mention, inside: list[Mention]) -> list[Mention]:
    """The subjects of the clauses that leave `verb` out after it ("X was fined 9.8
    million euros, Y 7.5 million euros and Z 6.5 million"): named parties, as `subject`
    is, after the verb, each followed by its own amount, with no other verb or preposition
    between them and the verb in the parse."""
    doc = verb.doc
    out: list[Mention] = []
    if subject.family not in ACTOR_FAMILIES:
        return []
    for m in inside:
        if m is subject or m.family not in ACTOR_FAMILIES or m.start <= verb.idx:
            continue
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None or span.end >= len(doc) or not doc[span.end].like_num:
            continue
        if _reaches_without_clause(span.root, verb):
            out.append(m)
    return out


def gapped_siblings(sent: Any, inside: list[Mention]) -> set[frozenset[str]]:
    """Pairs of names that are a clause's subject and the subject of a clause gapped after
    it: parallel parties, never related to each other by the shared verb's words."""
    out: set[frozenset[str]] = set()
    for tok in sent:
        if tok.pos_ != "VERB":
            continue
        for s_tok in (c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")):
            subject = _named(s_tok, inside)
            if subject is None:
                continue
            parallel = [subject.name, *(m.name for m in gapped(tok, subject, inside))]
            out |= {frozenset((a, b)) for a in parallel for b in parallel if a != b}
    return out


def _reaches_without_clause(tok: Any, verb: Any) -> bool:
    """Whether `tok` hangs on `verb` through nouns and numbers only."""
    t = tok
    for _ in range(len(tok.sent)):
        if t.i == verb.i:
            return True
        if t.head.i == t.i or t.pos_ in ("VERB", "AUX", "ADP", "SCONJ"):
            return False
        t = t.head
    return False


__all__ = ["Act", "acts", "gapped", "gapped_siblings", "implied_agents", "same_acts"]
