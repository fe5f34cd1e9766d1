"""Events a clause names: "Serbia revoked Rio Tinto's licences" is an event that affects
Rio Tinto, and "suspended cobalt exports, hitting CMOC" names what hit CMOC.

Pure over a parsed sentence (no I/O). A state action or a disruption written as a verb
has no noun to be the cause in `affectedBy(party, cause)`, so the clause is turned into
the noun English would use for it (`NOMINALS`: revoke -> revocation):

- an action on something an entity holds ("revoked Rio Tinto's licences", "cancelled the
  Sonora concessions held by Ganfeng") affects the holder: `affectedBy(Rio Tinto,
  "Serbia's revocation of Rio Tinto's licences")`;
- a participle of harm after such a clause ("suspended cobalt exports for four months,
  hitting CMOC and Glencore") names its objects as affected by that clause's event:
  `affectedBy(CMOC, "DR Congo cobalt export suspension")`.

The event is named from the clause's own words: its actor (when one is named), then
either the goods compounded into a bare object ("cobalt export suspension") or "<action>
of <object>" ("revocation of Rio Tinto's licences").
"""

from __future__ import annotations

from typing import Any

from mining.mentions import Mention
from mining.sentence_view import SentenceView, modified_from

# Verb lemma -> the noun English names its event with.
NOMINALS: dict[str, str] = {
    "revoke": "revocation",
    "cancel": "cancellation",
    "suspend": "suspension",
    "withdraw": "withdrawal",
    "terminate": "termination",
    "rescind": "rescission",
    "seize": "seizure",
    "expropriate": "expropriation",
    "nationalise": "nationalisation",
    "nationalize": "nationalization",
    "freeze": "freeze",
    "ban": "ban",
    "restrict": "restriction",
    "halt": "halt",
    "block": "blockade",
    "close": "closure",
    "shut": "shutdown",
    "strip": "stripping",
    "annul": "annulment",
    "impose": "imposition",
}
# Actions that take something away from whoever holds it.
DEPRIVING = frozenset(
    "revoke cancel suspend withdraw terminate rescind seize expropriate freeze strip annul".split()
)
# Participles that pass harm on: "..., hitting CMOC".
HARMING = frozenset("hit affect hurt disrupt threaten damage squeeze strand leave cost".split())
# Nouns through which a holder owns what was acted on: "subsidiaries of Ganfeng".
_HOLDER_NOUNS = frozenset({"subsidiary", "unit", "affiliate", "arm", "division", "owner"})


def _lemma(tok: Any) -> str:
    return str(tok.lemma_).lower()


def event_name(actor: Mention | None, verb: Any, obj: Any) -> str | None:
    """English for the event of `actor <verb> obj`; None when the verb names no event."""
    nominal = NOMINALS.get(_lemma(verb))
    if nominal is None:
        return None
    first, last = modified_from(obj), obj.i
    doc = obj.doc
    bare = not any(c.dep_ in ("det", "poss") for c in obj.children) and obj.tag_ == "NNS"
    if bare:
        # "suspended cobalt exports" -> "cobalt export suspension"
        words = [t.text for t in doc[first:last]] + [_lemma(obj), nominal]
        return " ".join([actor.text, *words] if actor else words)
    phrase = doc[first : last + 1].text
    who = f"{actor.text}'s " if actor else ""
    return f"{who}{nominal} of {phrase}"


def _event(name: str, verb: Any) -> Mention:
    return Mention(
        text=name,
        name=name,
        start=verb.idx,
        end=verb.idx + len(verb),
        family="event",
        type="Event",
        ual=None,
        origin="phrase",
    )


def holders(sent: SentenceView, obj: Any) -> list[Mention]:
    """Entities that hold what `obj` names: its possessor, or the agent of "held by X"
    (through "subsidiaries of X")."""
    found = [m for c in obj.children if c.dep_ == "poss" for m in sent.entities_at(c)]
    for acl in (c for c in obj.children if c.dep_ == "acl" and _lemma(c) in ("hold", "own")):
        for agent in (c for c in acl.children if c.dep_ == "agent"):
            for by in (g for g in agent.children if g.dep_ == "pobj"):
                direct = sent.entities_at(by, via_noun=False)
                if not direct and _lemma(by) in _HOLDER_NOUNS:
                    direct = [m for p in by.children if p.dep_ == "prep" and _lemma(p) == "of"
                              for g in p.children if g.dep_ == "pobj"
                              for m in sent.entities_at(g)]  # fmt: skip
                found.extend(direct)
    return found


def deprivations(
    sent: SentenceView, verb: Any, actors: list[Mention], flags: tuple[bool, bool]
) -> list[tuple[Mention, Mention, tuple[bool, bool]]]:
    """(holder, event, flags) for "<actor> revoked <holder>'s <thing>"."""
    if _lemma(verb) not in DEPRIVING:
        return []
    out = []
    for obj in (c for c in verb.children if c.dep_ == "dobj"):
        owners = holders(sent, obj)
        if not owners:
            continue
        name = event_name(actors[0] if actors else None, verb, obj)
        if name is None:
            continue
        out.extend((owner, _event(name, verb), flags) for owner in owners)
    return out


def harmed_by_clause(
    sent: SentenceView, verb: Any, actors: list[Mention]
) -> tuple[Mention, list[Any]] | None:
    """For a harming participle ("..., hitting CMOC and Glencore") after an event clause:
    (the clause's event, the participle's object heads); None otherwise."""
    if _lemma(verb) not in HARMING or verb.tag_ != "VBG" or verb.dep_ not in ("advcl", "xcomp"):
        return None
    if any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        return None
    clause = verb.head
    objects = [c for c in clause.children if c.dep_ == "dobj"]
    if not objects or clause.pos_ != "VERB":
        return None
    name = event_name(actors[0] if actors else None, clause, objects[0])
    if name is None:
        return None
    return _event(name, clause), [c for c in verb.children if c.dep_ == "dobj"]
