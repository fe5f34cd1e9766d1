"""How much a source is worth as evidence (pure: no I/O, clock or randomness).

Each evidence item counts through its *source*: one outlet (a URL's host), one document
without a host (its path), or one DKG asset (its UAL). Several passages of one source are
one source; that is what "independent" means in the confidence formula.

Reliability per source, by tier:

====== ========================== ============================================================
tier   reliability                sources
====== ========================== ============================================================
high   0.8                        hosts ending ``.gov``, ``.mil``, ``.int``, ``.edu``; national
                                  government and academic second levels under a two-letter
                                  country code (``gov.uk``, ``gob.cl``, ``go.jp``, ``ac.uk``,
                                  ``edu.au``...: ``HIGH_SECOND_LEVEL``); intergovernmental
                                  bodies and their subdomains (``INTERGOVERNMENTAL``)
medium 0.6                        news and analysis outlets (``MEDIUM_DOMAINS``) and their
                                  subdomains
low    0.3                        any other host; a source with no host (a local file)
dkg    0.5 + 0.3·min(1, s/100k)   a DKG asset with stake s TRAC: 0.5 unstaked, 0.8 from
                                  100,000 TRAC; 0.5 when the stake is unknown
====== ========================== ============================================================

A tier declared for a document (``kminer corpus add --tier``) replaces the host's tier;
DKG assets are always weighed by stake.

Recency multiplies reliability: 1.0 up to `FRESH_YEARS` old, then falling linearly to
`STALE_FACTOR` at `STALE_YEARS`; an undated source counts `UNDATED_FACTOR`.

Evidence strength is the noisy-OR over independent sources, ``1 - prod(1 - r_i * f_i)``:
each further source helps, less than the one before, and never reaches certainty.
"""

from __future__ import annotations

from datetime import date
from urllib.parse import urlsplit

TIERS = {"high": 0.8, "medium": 0.6, "low": 0.3}
DKG_BASE = 0.5
DKG_SPAN = 0.3
DKG_FULL_STAKE = 100_000.0
FRESH_YEARS = 2.0
STALE_YEARS = 10.0
STALE_FACTOR = 0.5
UNDATED_FACTOR = 0.8

HIGH_SUFFIXES = (".gov", ".mil", ".int", ".edu")
# Second-level labels national registries (two-letter TLDs) reserve for government and
# academia: gov.uk, gob.cl, go.jp, ac.uk, edu.au, govt.nz, gouv.fr.
HIGH_SECOND_LEVEL = frozenset({"gov", "gob", "gouv", "govt", "go", "mil", "ac", "edu"})
INTERGOVERNMENTAL = (
    "europa.eu",
    "un.org",
    "worldbank.org",
    "imf.org",
    "oecd.org",
    "iea.org",
    "wto.org",
    "unctad.org",
    "iaea.org",
    "irena.org",
    "ipcc.ch",
    "who.int",
)
MEDIUM_DOMAINS = (
    "reuters.com",
    "apnews.com",
    "bloomberg.com",
    "ft.com",
    "wsj.com",
    "economist.com",
    "nytimes.com",
    "theguardian.com",
    "bbc.com",
    "bbc.co.uk",
    "cnbc.com",
    "nikkei.com",
    "aljazeera.com",
    "spglobal.com",
    "fastmarkets.com",
    "benchmarkminerals.com",
    "argusmedia.com",
    "woodmac.com",
    "mining.com",
    "mckinsey.com",
    "carbonbrief.org",
    "nature.com",
    "science.org",
    "thelancet.com",
    "nejm.org",
)


def host_of(source: str) -> str:
    """Lower-case host of a URL or bare domain ('www.' dropped); '' when there is none.

    A source without a scheme is a host when its first segment has a dot
    ("reuters.com/x"), a path otherwise ("reports/q3.pdf"); `file:` URIs have no host.
    """
    text = source.strip().lower()
    if text.startswith("file:"):
        return ""
    if "://" not in text:
        if "." not in text.split("/", 1)[0]:
            return ""
        text = "//" + text
    host = urlsplit(text).hostname
    if not host:
        return ""
    host = host.removesuffix(".").removeprefix("www.")
    return host if "." in host else ""


def _under(host: str, domain: str) -> bool:
    return host == domain or host.endswith("." + domain)


def host_tier(host: str) -> str:
    """The tier of a host by the table above."""
    labels = host.split(".")
    if (
        host.endswith(HIGH_SUFFIXES)
        or (len(labels[-1]) == 2 and labels[-2] in HIGH_SECOND_LEVEL)
        or any(_under(host, d) for d in INTERGOVERNMENTAL)
    ):
        return "high"
    if any(_under(host, d) for d in MEDIUM_DOMAINS):
        return "medium"
    return "low"


def classify_source(source: str, declared: str | None = None) -> tuple[str, str]:
    """(independence key, tier) of a source: one key per outlet, document or DKG asset."""
    text = source.strip()
    if text.lower().startswith("did:dkg:"):
        return text, "dkg"
    host = host_of(text)
    key = host or text.lower()
    if declared in TIERS:
        return key, declared  # type: ignore[return-value]
    return key, host_tier(host)  # no host: "low"


def dkg_reliability(stake: float | None) -> float:
    """A DKG asset as a source: more trusted the more TRAC is staked on it."""
    if stake is None:
        return DKG_BASE
    return round(DKG_BASE + DKG_SPAN * min(1.0, max(0.0, stake) / DKG_FULL_STAKE), 4)


def reliability(tier: str, stake: float | None = None) -> float:
    return dkg_reliability(stake) if tier == "dkg" else TIERS.get(tier, TIERS["low"])


def _parse_day(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        return None


def recency(published: str | None, as_of: str | None) -> float:
    """1.0 while fresh, linearly down to STALE_FACTOR at STALE_YEARS; undated: UNDATED_FACTOR."""
    day, today = _parse_day(published), _parse_day(as_of)
    if day is None or today is None:
        return UNDATED_FACTOR
    years = (today - day).days / 365.25
    slope = (1.0 - STALE_FACTOR) / (STALE_YEARS - FRESH_YEARS)
    return round(min(1.0, max(STALE_FACTOR, 1.0 - slope * (years - FRESH_YEARS))), 4)


def noisy_or(weights: list[float]) -> float:
    doubt = 1.0
    for w in weights:
        doubt *= 1.0 - min(1.0, max(0.0, w))
    return round(1.0 - doubt, 4)
