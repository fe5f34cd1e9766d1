"""What a party's instrument does, the party does: "A issued D, which ordered B ...".

"The harbour board adopted Bylaw 7, which bans jet skis from the marina": the bylaw
cannot act by itself; banning jet skis is the board's act through it. A sentence that
names a party acting on a named thing that is not itself an actor (a directive, a law,
a report, a release) and then says, in a relative clause on that thing, what it did,
says the party did it too. Only a relative clause whose subject is the relative pronoun
("which ordered"), so the thing is the doer of the clause, and only a thing the party
acted on in the same sentence. Only acts pass, read as open verb relations on both
sides: a typed standing tie ("sponsors" a trial that "studies" a drug) is no act done
through the thing. Pure over the parse and the relations already read; no verb is listed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mining.implied_agents import ACTOR_FAMILIES
from mining.mentions import Mention
from mining.predicates import PREDICATES
from mining.relation_parts import Relation

METHOD = "instrument"
# The typed tie of a party to what it made or published ("published the report").
MADE = "produces"
# Relative pronouns that stand for the thing the clause hangs on (closed class).
_RELATIVES = frozenset({"which", "that"})


def _relative_clauses(doc: Any, thing: Mention) -> list[Any]:
    """The relative clauses on `thing` whose subject is the relative pronoun."""
    span = doc.char_span(thing.start, thing.end, alignment_mode="expand")
    if span is None:
        return []
    heads = {t.i for t in span}
    # The parser may hang the clause on any word of the name ("Directive 21-01, which").
    return [c for t in span for c in t.children
            if c.dep_ == "relcl" and c.i not in heads
            and any(s.dep_ == "nsubj" and s.lower_ in _RELATIVES for s in c.children)]  # fmt: skip


def _inside(doc: Any, m: Mention, clause: Any) -> bool:
    span = doc.char_span(m.start, m.end, alignment_mode="expand")
    return span is not None and clause.left_edge.i <= span.root.i <= clause.right_edge.i


def instrument_acts(sent: Any, relations: list[Relation]) -> list[Relation]:
    """For each named party that acted on a named non-actor thing, the relations the
    thing's own relative clause states with it as subject, said of the party instead."""
    doc = sent.doc
    out: list[Relation] = []
    for used in relations:
        party, thing = used.subject, used.object
        if party.family not in ACTOR_FAMILIES or thing.family in ACTOR_FAMILIES:
            continue
        if used.negated or used.hedged or used.predicate in PREDICATES.keys() - {MADE}:
            # A party that did not issue the directive did not order what it did; a
            # standing tie ("sponsors" a trial) is no act through the thing, making it is.
            continue
        for clause in _relative_clauses(doc, thing):
            for r in relations:
                if r.subject.name != thing.name or r.object.name in (party.name, thing.name):
                    continue
                if r.predicate in PREDICATES:
                    continue  # what a trial "studies" is its own, not its sponsor's; only acts
                if _inside(doc, r.object, clause):
                    out.append(replace(r, subject=party, method=METHOD))
    return out
