"""Statements from text: entity mentions, typed relations, provenance down to the sentence.

Pure given its inputs (the spaCy model is a fixed, pinned file): the same text and
gazetteer always give the same statements, so a retried activity or a replayed agent
sees identical results.

For each text (a corpus passage, a web page, a DKG asset's description):
1. mentions: the DKG gazetteer merged with spaCy's named entities (`mining/nlp.py`);
2. relations: dependency rules first (`mining/relations.py`); then, for neighbouring
   mentions the parse did not relate, the words between them (`extraction_patterns`);
   "A supplies X to B" hands B to A's verb instead of relating X to B;
3. each relation is put in its canonical direction (`mining/predicates.py`), so
   "CATL buys from Tianqi" and "Tianqi supplies CATL" are one fact;
4. provenance: the sentence, its character span in the source document (the passage's
   offset plus the sentence's), the passage id, title, date and declared tier.
Negated statements are kept and marked (they are evidence *against* a claim); hedged
ones ("expected to", "could") are kept and marked too, and never proposed.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from typing import Any

from contracts.tools import SourceDocument, Statement
from mining.extraction_patterns import Gazetteer, Homonyms, predicate_for
from mining.implied_agents import acts, gapped_siblings, implied_agents, same_acts
from mining.instrument_acts import instrument_acts
from mining.interruption import check as check_interrupted
from mining.mentions import Mention, contains_run
from mining.names import normalise_name, type_family
from mining.nlp import Resolver, mentions_in
from mining.open_statements import named_over_generic, open_statements
from mining.parsing import parse
from mining.predicates import PREDICATES, canonical, kinds_allow
from mining.relation_lexicon import GOVERNMENT_REFS, HEDGE_AUX, HEDGE_VERBS
from mining.relations import Relation, deliveries, relations_in
from mining.sentence_starts import is_title_line

__all__ = ["READING_BUDGET_S", "ReadingOverBudget", "read_statements", "Statement"]

# Verbs that take a recipient after their direct object ("supplies X to B").
_DITRANSITIVE = frozenset({"supplies", "produces", "exportsTo", "sponsors"})
_RECIPIENT_GAP = re.compile(r"^\W*(?:to|for)\W*$", re.IGNORECASE)
MAX_STATEMENTS_PER_TEXT = 40


def _fallback(sentence: Any, mentions: list[Mention], relations: list[Relation]) -> list[Relation]:
    """Relations the words between neighbouring mentions name, where the parse found none."""
    text = sentence.doc.text
    ends = [m for r in relations for m in (r.subject, r.object)]

    def owner(m: Mention) -> str:
        # A mention inside a phrase the parse related ("Chile" in "Chile's royalty reform")
        # is that phrase.
        for end in ends:
            if end.start <= m.start and m.end <= end.end:
                return end.name
        return m.name

    related = {frozenset((owner(r.subject), owner(r.object))) for r in relations}
    # A relation the parse already explained ("X, a firm based in Odesa, Ukraine, supplies
    # B": X supplies B) is not given a second subject or object by proximity.
    explained = {(r.predicate, r.object.name) for r in relations} | {
        (r.predicate, "subject:" + r.subject.name) for r in relations
    }
    out: list[Relation] = []
    carried: tuple[Mention, str] | None = None
    for left, right in zip(mentions, mentions[1:], strict=False):
        if left.name == right.name:
            continue
        gap = text[left.end : right.start]
        if carried and _RECIPIENT_GAP.match(gap) and carried[0].name != right.name:
            subj, verb = carried
            if frozenset((owner(subj), owner(right))) not in related:
                predicate = "supplies" if verb == "produces" else verb
                out.append(Relation(subj, predicate, right, method="pattern", cue="to"))
            carried = None
            continue
        carried = None
        if frozenset((owner(left), owner(right))) in related or owner(left) == owner(right):
            continue
        rule = predicate_for(gap)
        if rule is None:
            continue
        predicate, swap = rule
        subj, obj = (right, left) if swap else (left, right)
        if (predicate, obj.name) in explained or (predicate, "subject:" + subj.name) in explained:
            continue
        between = [t for t in sentence if left.end <= t.idx < right.start]
        # "X plans studies in Y", "X does not supply Y": the gap's own words qualify it.
        hedged = any(t.lemma_.lower() in HEDGE_VERBS | HEDGE_AUX for t in between)
        negated = any(t.dep_ == "neg" for t in between)
        out.append(Relation(subj, predicate, obj, negated, hedged, "pattern",
                            " ".join(gap.split())))  # fmt: skip
        if not swap and predicate in _DITRANSITIVE:
            carried = (subj, predicate)
    return out


# Personal pronouns that stand for a party named before: closed-class English.
def _surface(end: Mention) -> str | None:
    """The end's own words in the text, when they differ from its (DKG) name."""
    text = " ".join(end.text.split())
    return text if text and text.lower() != end.name.lower() and end.start >= 0 else None


def _shortened(words: str, name: str) -> bool:
    """Whether `words` are only a piece of `name` ("Cocoa Board" of "Ghana's Cocoa Board")."""
    return contains_run(normalise_name(name).split(), normalise_name(words).split())


def _called(mentions: list[Mention]) -> dict[str, str]:
    """{entity name: another name the text gives it}: a name of words of its own ("known
    as COCOBOD") over a piece of its name ("Cocoa Board" for "Ghana's Cocoa Board")."""
    called: dict[str, str] = {}
    for m in sorted(mentions, key=lambda m: (m.name, _shortened(m.text, m.name), m.start)):
        if (alias := _surface(m)) is not None:
            called.setdefault(m.name, alias)
    return called


def _text_for(end: Mention, called: dict[str, str]) -> str | None:
    """What a statement says the text called its end: its own words where they are a name
    of their own, else the other name the text gave the entity."""
    own = _surface(end)
    if own is not None and not _shortened(own, end.name):
        return own
    return called.get(end.name) or own


def _described(doc: SourceDocument) -> str:
    """A DKG description as a sentence about its asset: 'X is a Chilean producer of ...'."""
    text = " ".join(doc.text.split())
    if not doc.subject or doc.subject.lower() in text[: len(doc.subject) + 40].lower():
        return text
    first = parse(text)
    root = next(iter(first.sents)).root if len(first) else None
    if root is not None and root.pos_ in ("NOUN", "PROPN", "ADJ"):
        article = "" if text.split()[0].lower() in ("a", "an", "the") else "a "
        return f"{doc.subject} is {article}{text}"
    return text


class ReadingOverBudget(RuntimeError):
    """A text took longer to read than its budget: it is skipped and reported, never
    retried (`mining/statement_reads.py`)."""


# Seconds one text (a passage or a description) may take to read. Parsing is linear and
# every walk over the parse is bounded, so an ordinary passage takes milliseconds; the
# budget is what keeps a pathological one from holding a worker.
READING_BUDGET_S = 20.0


def read_statements(
    doc: SourceDocument,
    gazetteer: Gazetteer,
    resolver: Resolver,
    budget_s: float = READING_BUDGET_S,
) -> list[Statement]:
    """Statements a text makes about entities, each with its sentence and provenance."""
    text = _described(doc) if doc.subject else doc.text
    # The sentences before the passage are parsed with it, so "the outbreak" and "it" can
    # point back to them; only the passage's own sentences yield statements.
    # The title leads them: "the diversions" may refer to the headline's "Red Sea diversions".
    before = [t for t in (doc.title, doc.context) if t] if not doc.subject else []
    lead_in = "".join(_as_sentences(t) for t in before)
    full = lead_in + text
    parsed = parse(full)
    mentions = mentions_in(parsed, gazetteer, resolver, doc.names)
    homonyms = Homonyms(gazetteer)
    # Another name the text gives an entity ("Electricite de France (EDF)"), for every
    # statement about it: what it was called where it was named is kept beside it.
    called = _called(mentions)
    offset = doc.start if doc.start is not None and not doc.subject else None
    out: list[Statement] = []
    seen: set[tuple[str, str, str, bool]] = set()
    # Contracts that name no goods, and what parties say they will deliver (same order).
    contracts: list[tuple[int, Statement]] = []
    delivered: list[tuple[int, Mention, Mention]] = []
    deadline = time.monotonic() + budget_s
    done = acts(parsed, mentions)  # who did what, for a later passive that names no agent
    for sent in parsed.sents:
        if sent.start_char < len(lead_in):
            continue
        check_interrupted()  # a cancelled activity's reading stops here, between sentences
        if time.monotonic() > deadline:
            raise ReadingOverBudget(f"{doc.source} {doc.passageId or ''}: over {budget_s:g} s")
        if is_title_line(full[sent.start_char : sent.end_char]):
            continue  # a heading or a table row names things; it states no relation
        inside = [m for m in mentions if m.start >= sent.start_char and m.end <= sent.end_char]
        before = [m for m in mentions if m.end <= sent.start_char]
        if not inside and not (before and _refers_to_a_country(sent)):
            continue  # nothing named here ("the government" names the country said before)
        relations = relations_in(sent, inside, before)
        relations += _fallback(sent, inside, relations)
        relations += implied_agents(sent, inside, done)
        # A typed reading whose ends do not fit its type ("Vietnam supplies the
        # Philippines": two countries) leaves the pair to the clause's own words, when
        # they say more than a preposition ("Lecanemab in Alzheimer's disease").
        typed = [_typed_ends(r, homonyms) for r in relations]
        fits = [kinds_allow(p, subj.family, obj.family) for p, subj, obj in typed]
        refused = {frozenset((r.subject.name, r.object.name))
                   for r, ok in zip(relations, fits, strict=True) if not ok}  # fmt: skip
        relations = [r for r, ok in zip(relations, fits, strict=True) if ok]
        opened = [r for r in open_statements(sent, inside, before, relations)
                  if frozenset((r.subject.name, r.object.name)) not in refused
                  or len((r.cue or "").split()) > 1]  # fmt: skip
        relations = named_over_generic(relations, opened)
        relations += instrument_acts(sent, relations)  # "A issued D, which ordered B"
        relations += same_acts(sent, inside, relations)  # "..., and Z followed"
        if siblings := gapped_siblings(sent, inside):  # "X was fined A, Y B": X, Y parallel
            relations = [r for r in relations
                         if frozenset((r.subject.name, r.object.name)) not in siblings]  # fmt: skip
        raw = full[sent.start_char : sent.end_char]
        sentence = raw.strip()
        at = sent.start_char - len(lead_in) + len(raw) - len(raw.lstrip())
        for rel in relations:
            predicate, subj, obj = _typed_ends(rel, homonyms)
            if not kinds_allow(predicate, subj.family, obj.family):
                continue
            goods = rel.goods  # set on supplies and contracts only (mining/relations.py)
            if goods is not None:  # the chemical a company sells, not the drug of that name
                goods = _fitting("produces", goods, "object", homonyms)
            key = (subj.name.lower(), predicate, obj.name.lower(), rel.negated)
            if key in seen or len(out) >= MAX_STATEMENTS_PER_TEXT:
                continue
            seen.add(key)
            start = offset + at if offset is not None else None
            out.append(
                Statement(
                    subject=subj.name,
                    subjectUal=subj.ual,
                    subjectType=subj.type,
                    subjectText=_text_for(subj, called),
                    predicate=predicate,
                    object=obj.name,
                    objectUal=obj.ual,
                    objectType=obj.type,
                    objectText=_text_for(obj, called),
                    goods=goods.name if goods else None,
                    goodsUal=goods.ual if goods else None,
                    goodsType=goods.type if goods else None,
                    sentence=sentence,
                    source=doc.source,
                    sourceTitle=doc.title,
                    passageId=doc.passageId,
                    start=start,
                    end=start + len(sentence) if start is not None else None,
                    published=doc.published,
                    tier=doc.tier,
                    negated=rel.negated,
                    hedged=rel.hedged,
                    method=rel.method,
                )
            )
            if predicate == "awardsContractTo" and goods is None and not rel.negated:
                contracts.append((sent.start_char, out[-1]))
        if contracts:  # only a delivery from a contract's sentence on can name its goods
            delivered += [(sent.start_char, p, g) for p, g in deliveries(sent, inside, before)]
    _goods_delivered(contracts, delivered, homonyms)
    return out


def _goods_delivered(
    contracts: list[tuple[int, Statement]],
    delivered: list[tuple[int, Mention, Mention]],
    homonyms: Homonyms,
) -> None:
    """A contract names no goods, and its winner then says what it will deliver ("NHS
    Supply Chain awarded a contract to BD. BD will supply volumetric infusion pumps to
    hospital trusts"): those are the contract's goods. The first such delivery at or
    after the contract's sentence, in the same text."""
    for at, st in contracts:
        for when, party, goods in delivered:
            same = party.ual == st.objectUal if party.ual else party.name == st.object
            if when >= at and same:
                goods = _fitting("produces", goods, "object", homonyms)
                st.goods, st.goodsUal, st.goodsType = goods.name, goods.ual, goods.type
                break


def _typed_ends(rel: Relation, homonyms: Homonyms) -> tuple[str, Mention, Mention]:
    """The relation in its canonical direction, each end typed for its slot."""
    predicate, subj, obj = _canonical(rel)
    subj, obj = (_role_typed(predicate, _fitting(predicate, end, slot, homonyms), slot)
                 for end, slot in ((subj, "subject"), (obj, "object")))  # fmt: skip
    if predicate == "operatesIn" and subj.family == obj.family == "place":
        # "the Thacker Pass project in Nevada", "X is Y's operation in Minas
        # Gerais": a place does not operate somewhere, it lies there.
        predicate = "locatedIn"
    return predicate, subj, obj


def _fitting(predicate: str, end: Mention, slot: str, homonyms: Homonyms) -> Mention:
    """Of the DKG assets one label names, the one the relation's slot expects most.

    A predicate lists its kinds most typical first (`mining/predicates.py`): a study
    tests a drug before a product, so "tests lithium carbonate" is the drug, while a
    company "produces lithium carbonate", the chemical."""
    spec = PREDICATES.get(predicate)
    same = homonyms.of(end.name) if end.ual and spec else ()
    kinds = (spec.subject_kinds if slot == "subject" else spec.object_kinds) if spec else ()
    if not same or not kinds:
        return end

    def rank(entry: tuple[str, str, str]) -> int:
        family = type_family(entry[2])
        return kinds.index(family) if family in kinds else len(kinds)

    best = min(same, key=rank)
    if best[1] == end.ual or rank(best) >= rank((end.name, end.ual or "", end.type)):
        return end
    return replace(end, name=best[0], family=type_family(best[2]), type=best[2], ual=best[1])


def _role_typed(predicate: str, end: Mention, slot: str) -> Mention:
    """A name the small NER model guessed a person, in a slot that takes organisations
    and never people ("supplies germanium to Ardennes Refining"), is an organisation: the
    relation the sentence states says more than the model's guess. A DKG asset keeps the
    type the DKG gives it."""
    spec = PREDICATES.get(predicate)
    kinds = (spec.subject_kinds if slot == "subject" else spec.object_kinds) if spec else ()
    if end.ual or end.family != "person" or "person" in kinds or "organization" not in kinds:
        return end
    return replace(end, family="organization", type="Organization")


def _as_sentences(text: str) -> str:
    """Text read before a passage, ended so it never runs into the passage's first sentence."""
    text = text.strip()
    return f"{text}{'' if text[-1:] in '.!?' else '.'}\n\n"


def _refers_to_a_country(sent: Any) -> bool:
    return any(t.lemma_.lower() in GOVERNMENT_REFS and t.pos_ == "NOUN" for t in sent)


def _canonical(rel: Relation) -> tuple[str, Mention, Mention]:
    predicate, subj_name, _ = canonical(rel.predicate, rel.subject.name, rel.object.name)
    if subj_name == rel.subject.name and predicate == rel.predicate:
        return predicate, rel.subject, rel.object
    if subj_name == rel.object.name:
        return predicate, rel.object, rel.subject
    return predicate, rel.subject, rel.object
