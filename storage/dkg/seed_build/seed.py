"""The seed builder's bookkeeping: the `Seed` every domain module adds its entities to.

Everything derived (LEI-like identifiers, stakes inside a tier, publish times, update
counts) comes from a hash of the asset id, so a rebuild is byte-identical and a fresh
store always mints the same UALs.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# The seed data this package writes: storage/dkg/seed/.
SEED_DIR = Path(__file__).resolve().parent.parent / "seed"
DOMAINS = ("supply_chain", "general_risk", "climate", "procurement", "clinical_trials")

# Publisher handles -> display name; the 0x address is derived from the handle.
PUBLISHERS = {
    "origintrail": "OriginTrail Foundation (demo node)",
    "tracelabs": "Trace Labs (demo publisher)",
    "riskdesk": "Supply Chain Risk Desk",
    "climatedata": "Climate Data Collective",
    "procwatch": "Open Procurement Watch",
    "trialmirror": "Clinical Registry Mirror",
    "community": "Community contributor",
}
_TIERS = {"H": (60_000, 400_000), "M": (10_000, 49_500), "L": (1_000, 9_500)}


def _h(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


def address(handle: str) -> str:
    """A publisher's demo 0x address, derived from its handle."""
    return "0x" + hashlib.sha256(f"publisher:{handle}".encode()).hexdigest()[:40]


def lei(key: str) -> str:
    """A 20-character LEI-shaped code; the KM prefix marks it as synthetic."""
    return "KM00" + hashlib.sha256(f"lei:{key}".encode()).hexdigest()[:16].upper()


def _ref(value: Any) -> Any:
    """'@org:x' strings (alone or in lists) become {'@id': 'urn:kminer:org:x'}."""
    if isinstance(value, str) and value.startswith("@"):
        return {"@id": f"urn:kminer:{value[1:]}"}
    if isinstance(value, list):
        return [_ref(v) for v in value]
    return value


class Seed:
    """The seed being built: its items per domain, and every asset id (to check links)."""

    def __init__(self) -> None:
        self.items: dict[str, list[dict[str, Any]]] = {d: [] for d in DOMAINS}
        self.ids: set[str] = set()

    def add(
        self,
        domain: str,
        key: str,
        type_: str,
        name: str,
        desc: str,
        *,
        stake: int | str,
        pub: str = "tracelabs",
        alt: list[str] | None = None,
        ident: str | None = None,
        **props: Any,
    ) -> None:
        iri = f"urn:kminer:{key}"
        asset: dict[str, Any] = {"@context": "https://schema.org/", "@type": type_, "@id": iri}
        asset["name"] = name
        if alt:
            asset["alternateName"] = alt
        asset["identifier"] = ident or (lei(key) if key.startswith("org:") else iri)
        asset["description"] = desc
        asset.update({k: _ref(v) for k, v in props.items() if v is not None})
        h = _h(iri)
        if isinstance(stake, str):
            low, high = _TIERS[stake]
            stake = low + (h % ((high - low) // 500 + 1)) * 500
        when = datetime(2023, 1, 1, tzinfo=UTC) + timedelta(days=h % 900, seconds=h % 86_400)
        meta = {
            "stakeAmount": stake,
            "publisher": address(pub),
            "publisherName": PUBLISHERS[pub],
            "publishTime": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "updateCount": (h >> 8) % 4,
            "domain": domain,
        }
        self.ids.add(iri)
        self.items[domain].append({"asset": asset, "metadata": meta})

    def org(
        self,
        domain: str,
        slug: str,
        name: str,
        alt: list[str],
        country: str,
        city: str,
        desc: str,
        *,
        stake: int | str,
        founded: str | None = None,
        employees: int | None = None,
        type_: str = "Corporation",
        **props: Any,
    ) -> None:
        address_ = {"@type": "PostalAddress", "addressLocality": city, "addressCountry": country}
        self.add(
            domain, f"org:{slug}", type_, name, desc, stake=stake, alt=alt,
            address=address_, foundingDate=founded, numberOfEmployees=employees, **props,
        )  # fmt: skip

    def check_refs(self) -> None:
        """Every {'@id'} link must point at a seeded asset."""

        def walk(value: Any) -> None:
            if isinstance(value, dict):
                if set(value) == {"@id"} and value["@id"] not in self.ids:
                    raise ValueError(f"dangling reference {value['@id']}")
                for v in value.values():
                    walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)

        for items in self.items.values():
            for item in items:
                for k, v in item["asset"].items():
                    if k != "@id":
                        walk(v)
