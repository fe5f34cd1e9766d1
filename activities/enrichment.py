"""Turn statements into candidate Knowledge Assets (JSON-LD), linked by UAL."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from temporalio import activity

from workflows.tool_contracts import ProposeArgs, Statement, ToolMetadata, ToolResponse

SCHEMA_CONTEXT = "https://schema.org/"
_WORD = re.compile(r"[a-z0-9]+")
_STOP = {"the", "of", "and", "a", "an", "to", "in", "for", "which", "what", "who", "with", "on"}


def _tokens(text: str) -> set[str]:
    return {t for t in _WORD.findall(text.lower()) if t not in _STOP and len(t) > 2}


def _humanize(predicate: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", predicate).lower()


def candidate_id(subject: str, predicate: str, obj: str) -> str:
    digest = hashlib.sha256(f"{subject}|{predicate}|{obj}".lower().encode()).hexdigest()
    return f"cand-{digest[:10]}"


def build_claim(
    group: list[Statement], links: dict[str, str], tags: list[str], discovered_at: str
) -> dict[str, Any]:
    """One schema:Claim per distinct (subject, predicate, object), with all its sources."""
    first = group[0]
    subject_ual = links.get(first.subject.lower()) or first.subjectUal
    object_ual = links.get(first.object.lower()) or first.objectUal
    cid = candidate_id(first.subject, first.predicate, first.object)
    sources = list(dict.fromkeys(s.source for s in group if s.source))
    linked = [u for u in (subject_ual, object_ual) if u]
    asset: dict[str, Any] = {
        "@context": SCHEMA_CONTEXT,
        "@type": "Claim",
        "@id": f"urn:kminer:claim:{cid.removeprefix('cand-')}",
        "identifier": f"urn:kminer:claim:{cid.removeprefix('cand-')}",
        "name": f"{first.subject} {_humanize(first.predicate)} {first.object}",
        "text": first.sentence,
        "about": {"@id": subject_ual, "name": first.subject} if subject_ual else first.subject,
        "additionalProperty": {
            "@type": "PropertyValue",
            "name": "predicate",
            "value": first.predicate,
        },
        "linkedAssets": linked,
        "provenance": {
            "sources": sources,
            "discoveredAt": discovered_at,
            "evidence": [{"source": s.source, "sentence": s.sentence} for s in group],
        },
        "domainTags": tags,
    }
    if object_ual:
        asset["mentions"] = {"@id": object_ual, "name": first.object}
    else:
        asset["mentions"] = first.object
    return asset


def rank_groups(
    statements: list[Statement], links: dict[str, str], query: str
) -> list[list[Statement]]:
    groups: dict[tuple[str, str, str], list[Statement]] = {}
    for st in statements:
        key = (st.subject.lower(), st.predicate, st.object.lower())
        groups.setdefault(key, []).append(st)
    wanted = _tokens(query)

    def score(group: list[Statement]) -> tuple[int, int, int, str]:
        st = group[0]
        relevance = len(wanted & _tokens(f"{st.subject} {st.object} {st.sentence}"))
        linked = sum(
            1
            for name, ual in ((st.subject, st.subjectUal), (st.object, st.objectUal))
            if ual or name.lower() in links
        )
        return (-relevance, -linked, -len(group), f"{st.subject}|{st.predicate}|{st.object}")

    return sorted(groups.values(), key=score)


def propose(args: ProposeArgs, discovered_at: str) -> ToolResponse:
    links = {k.lower(): v for k, v in args.links.items()}
    rows: list[dict[str, Any]] = []
    for group in rank_groups(args.statements, links, args.query)[: args.maxCandidates]:
        asset = build_claim(group, links, args.domainTags, discovered_at)
        first = group[0]
        cid = candidate_id(first.subject, first.predicate, first.object)
        triplets = [
            {
                "subject": first.subject,
                "predicate": first.predicate,
                "object": first.object,
                "source": asset["provenance"]["sources"][0]
                if asset["provenance"]["sources"]
                else None,
                "kind": "knowledge",
            }
        ]
        triplets += [
            {
                "subject": cid,
                "predicate": "derivedFrom",
                "object": src,
                "source": src,
                "kind": "provenance",
            }
            for src in asset["provenance"]["sources"]
        ]
        rows.append({"candidateId": cid, "asset": asset, "triplets": triplets})
    return ToolResponse(
        success=True,
        results=rows,
        metadata=ToolMetadata(count=len(rows)),
        provenance=[],
    )


@activity.defn(name="propose_knowledge_assets")
async def propose_knowledge_assets(args: ProposeArgs) -> ToolResponse:
    # The first scheduling time is stable across retries, so a retried
    # activity proposes byte-identical assets.
    discovered_at = activity.info().scheduled_time.replace(microsecond=0).isoformat()
    return propose(args, discovered_at)
