"""The answer to the user's question: accepted candidates, then those validation proposed to a
reviewer, hedged by their support (pure; the activity is activities/answer.py).

Each sentence states accepted claims that share a subject and relation ("Ganfeng Lithium
supplies Tesla and LG Energy Solution") and cites its candidates and their sources. A
relation in its source's own words is stored as lemmas ("EnBW reduce output of unit in
Karlsruhe"), which reads badly as a sentence: the answer quotes the source sentence it
was read from instead, once for every claim read from that sentence.
Facts the DKG already states (found again, so not proposed for publishing) are reported
in one closing sentence citing the existing assets. With nothing accepted the answer says
so plainly, and says why: nothing relevant was found, or what was found did not pass
validation and waits for a reviewer (seed 002: unsupported statements are dropped).
"""

from __future__ import annotations

from typing import Any

from contracts.run import AUTO_REVIEW_PROPOSED, Answer, AnswerSentence
from contracts.tools import AnswerArgs
from mining.names import type_family
from mining.predicates import is_typed, spec_for
from mining.question import asked_families
from mining.reliability import host_of

MAX_SENTENCES = 12
# Facts the DKG already states are mentioned only when clearly on topic.
KNOWN_FACT_MIN_RELEVANCE = 0.6
MAX_SOURCES_CITED = 3
# A quoted source sentence longer than this is cut at a word (a table row run together).
MAX_QUOTE_CHARS = 300


def _short(source: str) -> str:
    host = host_of(source)
    if host:
        return host
    if source.startswith("did:dkg:"):
        return source
    return source.rsplit("/", 1)[-1] or source


def _claim_parts(asset: dict[str, Any]) -> tuple[str, str, str] | None:
    about = asset.get("about")
    prop = asset.get("additionalProperty")
    if not isinstance(about, dict) or not isinstance(prop, dict):
        return None
    predicate = prop.get("value")
    spec = spec_for(str(predicate))
    target = about.get(spec.property)
    if not isinstance(target, dict):
        return None
    return str(about.get("name", "")), str(predicate), str(target.get("name", ""))


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sources(assets: list[dict[str, Any]]) -> list[str]:
    found: list[str] = []
    for asset in assets:
        provenance = asset.get("provenance") or {}
        for src in provenance.get("sources", []) if isinstance(provenance, dict) else []:
            if isinstance(src, str) and src not in found:
                found.append(src)
    return found


def _signals(c: dict[str, Any]) -> dict[str, Any]:
    return c["asset"].get("trustSignals") or {}


def _reported(c: dict[str, Any]) -> bool:
    """A claim validation proposed to a reviewer and no reviewer rejected: the answer
    reports it, hedged by its support (review "auto" rejects it only for publishing)."""
    if not _signals(c).get("proposed") or c.get("status") == "expired":
        return False
    return c.get("status") != "rejected" or c.get("reviewNote") == AUTO_REVIEW_PROPOSED


def _hedge(support: str, quoting: bool = False) -> str:
    """'One source reports that', '2 independent sources report that', ...; with a
    colon instead of 'that' before a quote."""
    joint = ":" if quoting else " that"
    if support.startswith("stated by"):
        return f"A DKG asset states{joint}"
    if support and support[0].isdigit():
        return f"{support[0].upper()}{support[1:]} report{joint}"
    return f"One source reports{joint}"


def _quote(asset: dict[str, Any]) -> str:
    """The source sentence a claim was read from, on one line, cut at a word if long."""
    provenance = asset.get("provenance")
    evidence = provenance.get("evidence") if isinstance(provenance, dict) else None
    first = evidence[0] if isinstance(evidence, list) and evidence else {}
    said = asset.get("text") or (first.get("snippet") if isinstance(first, dict) else "")
    text = " ".join(str(said or "").split())
    if len(text) > MAX_QUOTE_CHARS:
        text = text[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
    return text


def _sentences(claims: list[dict[str, Any]], hedged: bool) -> list[AnswerSentence]:
    # Typed claims of one subject and relation share a sentence ("X supplies A and B");
    # claims in their source's own words share the quote of the sentence they came from.
    groups: dict[tuple[str, str, str, str], list[tuple[dict[str, Any], tuple[str, str, str]]]] = {}
    for c in claims:
        parts = _claim_parts(c["asset"])
        if parts is None:
            continue
        support = str(_signals(c).get("support") or "") if hedged else ""
        quote = "" if is_typed(parts[1]) else _quote(c["asset"])
        key = ("", "", quote, support) if quote else (parts[0], parts[1], "", support)
        groups.setdefault(key, []).append((c, parts))
    out: list[AnswerSentence] = []
    for (subject, predicate, quote, support), members in groups.items():
        sources = _sources([c["asset"] for c, _ in members])
        ids = [c["candidateId"] for c, _ in members]
        # Two pages of one site are cited as that site once.
        cited = ", ".join(list(dict.fromkeys(_short(s) for s in sources))[:MAX_SOURCES_CITED])
        if quote:
            lead = _hedge(support, quoting=True) if hedged else "A source states:"
            text = f'{lead} "{quote}"'
        else:
            objects = list(dict.fromkeys(parts[2] for _, parts in members))
            fact = f"{subject} {spec_for(predicate).label} {_join(objects)}"
            text = f"{_hedge(support)} {fact}" if hedged else fact
        # A quote that ends its own sentence ("... in 2022.") takes no second full stop.
        stop = "" if text.rstrip('"').endswith((".", "!", "?", "…")) else "."
        out.append(AnswerSentence(text=f"{text} [{', '.join(ids)}; {cited}]{stop}",
                                  candidateIds=ids, sources=sources, hedged=hedged))  # fmt: skip
    return out


def _names_asked(asset: dict[str, Any], asked: frozenset[str]) -> bool:
    """Whether a claim names an entity of a kind the question asks for."""
    about = asset.get("about")
    if not asked or not isinstance(about, dict):
        return False
    ends = [about, *(v for v in about.values() if isinstance(v, dict))]
    return any(type_family(str(e.get("@type", ""))) in asked for e in ends)


def _most_relevant_first(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """By relevance, then confidence (what the question asks for is split off before)."""
    return sorted(claims, key=lambda c: (-float(_signals(c).get("relevance") or 0),
                                         -float(_signals(c).get("confidence") or 0)))  # fmt: skip


def compose_answer(args: AnswerArgs) -> Answer:
    claims = [c for c in args.candidates if c.get("kind", "claim") == "claim"]
    usable = [
        c for c in claims if c.get("accepted") and c.get("status") not in ("rejected", "expired")
    ]  # fmt: skip
    reported = [c for c in claims if not c.get("accepted") and _reported(c)]
    asked = asked_families(args.query)
    # Claims naming what the question asks for (its companies, its places) come first,
    # accepted before reported: "Which suppliers ...?" is answered by the suppliers a
    # reviewer still has to confirm before a country's accepted restriction, however
    # relevant. With no kind asked, accepted claims lead.
    sentences: list[AnswerSentence] = []
    for naming in (True, False):
        for group, hedged in ((usable, False), (reported, True)):
            picked = [c for c in group if _names_asked(c["asset"], asked) == naming]
            sentences += _sentences(_most_relevant_first(picked), hedged=hedged)
    sentences = sentences[:MAX_SENTENCES]
    known = [
        c for c in args.candidates
        if c.get("kind", "claim") == "claim" and c.get("knownInDkg") and not c.get("accepted")
        and ((c["asset"].get("trustSignals") or {}).get("relevance") or 0)
        >= KNOWN_FACT_MIN_RELEVANCE
    ]  # fmt: skip
    if known:
        facts = [str(c["asset"].get("name")) for c in known[:4]]
        uals = sorted({u for c in known[:4] for u in c["knownInDkg"]})
        sentences.append(
            AnswerSentence(
                text=f"The DKG already states that {_join(facts)} [{', '.join(uals)}].",
                candidateIds=[c["candidateId"] for c in known[:4]],
                sources=uals,
                alreadyInDkg=True,
            )
        )
    if usable or reported:
        lead = f'Answer to "{args.query}" from {len(usable)} accepted candidate(s)'
        if reported:
            lead += (f" and {len(reported)} proposed for review, reported with their support"
                     " (not published unless a reviewer approves them)")  # fmt: skip
        lead += ": "
        return Answer(
            text=lead + " ".join(s.text for s in sentences),
            sentences=sentences,
            evidenceFound=True,
        )
    claims = [c for c in args.candidates if c.get("kind", "claim") == "claim"]
    if claims:
        text = (
            f"No answer can be given with confidence: {len(claims)} candidate claim(s) were "
            "found but none passed validation (see the report); nothing is published unless "
            "a reviewer approves it."
        )
    else:
        text = (
            f"No evidence found: nothing in the {args.sourcesSearched} source(s) searched "
            "(DKG and documents) was relevant to the question, so nothing was proposed or "
            "published."
        )
    if known:
        text += " " + sentences[-1].text
    return Answer(text=text, sentences=sentences if known else [], evidenceFound=False)
