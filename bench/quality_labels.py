"""The labeled questions of bench/quality/ and how a candidate is matched against them.

A claim matches a labeled fact when its relation is one the label accepts (inverse names
read in canonical direction, symmetric relations either way) and each end matches one of
the label's names: the same normalised name, the same DKG asset (a label name that is a
DKG label or alias resolves to its UAL), or one name's words containing all of the
other's when the smaller has at least two words ("China's export restrictions" and
"China export restrictions on lithium processing technology").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mining.names import normalise_name, tokens
from mining.predicates import INVERSE_OF, PREDICATES

QUALITY_DIR = Path(__file__).resolve().parent / "quality"


def _words(name: str) -> frozenset[str]:
    return tokens(re.sub(r"['’]s\b", "", name))


@dataclass
class End:
    names: list[str]
    uals: set[str] = field(default_factory=set)

    def matches(self, name: str, ual: str | None) -> bool:
        if ual and ual in self.uals:
            return True
        norm, words = normalise_name(name), _words(name)
        for alias in self.names:
            if normalise_name(alias) == norm:
                return True
            other = _words(alias)
            small, big = sorted((words, other), key=len)
            if len(small) >= 2 and small <= big:
                return True
        return False


@dataclass
class Fact:
    predicates: set[str]
    subject: End
    object: End
    symmetric: bool

    def matches(self, claim: dict[str, Any]) -> bool:
        if claim["predicate"] not in self.predicates:
            return False
        s, o = claim["subject"], claim["object"]
        direct = self.subject.matches(*s) and self.object.matches(*o)
        return direct or (self.symmetric and self.subject.matches(*o) and self.object.matches(*s))


@dataclass
class Question:
    id: str
    query: str
    tags: list[str]
    no_evidence: bool
    relevant_sources: set[str]
    gold: list[Fact]
    acceptable: list[Fact]
    new_entities: list[End]


def _fact(raw: dict[str, Any], resolve: Any) -> Fact:
    subject, obj = list(raw["subject"]), list(raw["object"])
    predicates: set[str] = set()
    swapped = False
    for p in raw["predicate"]:
        if p in INVERSE_OF:
            predicates.add(INVERSE_OF[p])
            swapped = True
        else:
            predicates.add(p)
    if swapped:
        subject, obj = obj, subject
    symmetric = any(PREDICATES.get(p) is not None and PREDICATES[p].symmetric for p in predicates)
    return Fact(
        predicates,
        End(subject, {u for n in subject for u in resolve(n)}),
        End(obj, {u for n in obj for u in resolve(n)}),
        symmetric,
    )


def load(name: str, resolve: Any) -> tuple[dict[str, Any], list[Question]]:
    """(the set's header, its questions); `resolve(name) -> set of UALs` links DKG names."""
    raw = json.loads((QUALITY_DIR / f"{name}.json").read_text(encoding="utf-8"))
    questions = []
    for q in raw["questions"]:
        sources = set()
        for src in q.get("relevantSources", []):
            if src.startswith("dkg:"):
                sources |= resolve(src.removeprefix("dkg:"))
            else:
                sources.add(src)
        questions.append(
            Question(
                id=q["id"],
                query=q["query"],
                tags=q.get("tags", []),
                no_evidence=bool(q.get("noEvidence")),
                relevant_sources=sources,
                gold=[_fact(f, resolve) for f in q.get("goldFacts", [])],
                acceptable=[_fact(f, resolve) for f in q.get("acceptableFacts", [])],
                new_entities=[
                    End([e["name"], *e.get("aliases", [])]) for e in q.get("newEntities", [])
                ],
            )
        )
    return raw, questions


def claim_view(candidate: dict[str, Any]) -> dict[str, Any] | None:
    """(predicate, (subject name, ual), (object name, ual), sources) of a claim candidate."""
    asset = candidate["asset"]
    prop = asset.get("additionalProperty") or {}
    predicate = prop.get("value")
    spec = PREDICATES.get(str(predicate))
    about = asset.get("about")
    if (
        spec is None
        or not isinstance(about, dict)
        or not isinstance(about.get(spec.property), dict)
    ):
        return None
    target = about[spec.property]

    def end(node: dict[str, Any]) -> tuple[str, str | None]:
        ref = node.get("@id")
        return str(node.get("name", "")), ref if isinstance(ref, str) else None

    evidence = (asset.get("provenance") or {}).get("evidence") or []
    return {
        "predicate": predicate,
        "subject": end(about),
        "object": end(target),
        "sources": {e.get("source") for e in evidence if isinstance(e, dict)},
        "name": asset.get("name"),
    }
