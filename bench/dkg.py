"""Benchmark of the embedded DKG at scale: build, label lookup, duplicate check, SPARQL.

    .venv/bin/python bench/dkg.py [--assets 100000] [--lookups 2000] [--dir PATH]
                                  [--seed 42] [--loader bulk|publish]

Generates N synthetic but realistic Knowledge Assets (Organizations, Products, Places
and Events named from combinatorial word lists, with identifiers, descriptions,
relations between them, stakes of 1,000-500,000 and ~2% deliberate near-duplicates),
bulk-loads them into an EmbeddedDkg (a temp dir, or --dir, which is reused when it
already holds a store built for the same size, seed and generator version), then
times seeded random calls of the agent-facing lookups:

  (a) find_related(label): half exact labels, half partial / token queries;
  (b) find_duplicates(asset): half candidates duplicating a stored asset, half novel;
  (c) a SPARQL metadata query (stake > 50,000, LIMIT 100), for reference.

The first lookup builds the in-memory label index and is reported apart as
"index build". This is a benchmark, not a test: it always exits 0 and states the
PASS/FAIL of each latency target in its last lines.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from mining.names import normalise_name
from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.embedded_records import UAL_PREFIX

LABEL_TARGET_MS = 20.0
DUPLICATE_TARGET_MS = 20.0
NEAR_DUPLICATE_SHARE = 0.02
# Stores built by another generator version are rebuilt instead of reused.
GENERATOR_VERSION = 1
CONTEXT = "https://schema.org/"
STAKE_QUERY = (
    "SELECT ?ual ?stake ?label WHERE { GRAPH <did:dkg:metadata> {"
    " ?ual dkg:stakeAmount ?stake ; rdfs:label ?label FILTER(?stake > 50000) } } LIMIT 100"
)
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
COUNT_META = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <did:dkg:metadata> { ?s ?p ?o } }"

# -- vocabulary -----------------------------------------------------------------------------
# Lists marked "ranked" are drawn with Zipf-like weights (earlier words are more common), so
# a few words ("lithium", "group") are shared by thousands of names, as in real registries.

ORG_PREFIXES = """Northern Southern Eastern Western Central Pacific Atlantic Andean Baltic Nordic
Alpine Coastal Continental Global United Pioneer Summit Meridian Horizon Aurora Zenith Granite
Silver Golden Iron Blue Red Green Black White Royal Imperial First Prime Apex Vertex Crest Harbor
Riverside Lakeshore Highland Prairie Desert Arctic Tropical Sierra Cordillera Atacama Pilbara
Kalahari Yukon Ontario Quebec Bavarian Saxon Iberian Celtic Aegean Caspian Mekong Yangtze Ganges
Danube Rhine Volga Amazon Patagonian Tasman Coral Sahara Nile Zambezi Orinoco Rocky Cascade
Appalachian Evergreen Keystone Liberty Heritage Frontier Beacon Anchor Compass Polaris Sterling
Crown Falcon Eagle Condor Jaguar Puma Lynx Orca Kestrel Osprey Cypress Cedar Oakridge Willow
Maple Redwood Sequoia Boreal Austral Equinox Solstice Tidewater Bluewater Stonebridge Ironbridge
Clearwater Westfield Eastgate Northstar Southcross""".split()
ORG_CORES = """Lithium Energy Minerals Metals Battery Cobalt Nickel Copper Chemical Resources
Graphite Solar Power Hydrogen Steel Logistics Shipping Freight Rail Pharma Biotech Medical
Health Genomics Diagnostics Agri Grain Timber Paper Textile Apparel Auto Motors Aerospace
Semiconductor Electronics Software Data Telecom Water Waste Recycling Carbon Climate Capital
Finance Insurance Commodities Petroleum Gas Refining Engineering Construction Infrastructure
Foods Dairy Fisheries Manganese Vanadium Zinc Tin Tungsten Uranium Aluminium Cement Polymer Wind
Grid Materials Marine Aviation Packaging Glass Ceramics Fertilizer Potash Phosphate Salt Borates
Silicon""".split()  # ranked
ORG_SECTORS = """Group Holdings Industries International Technologies Mining Solutions Partners
Ventures Systems Services Enterprises Exploration Development Processing Trading Works Labs
Networks Operations Investments Alliance Consortium Cooperative Supply Manufacturing Products
Trust""".split()  # ranked
LEGAL_FORMS = [
    "Ltd.", "Limited", "Inc.", "Corp.", "Corporation", "Co., Ltd.", "S.A.", "GmbH", "AG", "PLC",
    "LLC", "Pty Ltd", "N.V.", "S.p.A.", "AB", "SE", "S.A.S.",
]  # fmt: skip
BRANDS = """Kestrel Osprey Vireo Corvid Talon Nimbus Cirrus Strata Quartz Basalt Obsidian Helix
Vector Nova Orion Lyra Vega Atlas Titan Aurum Argent Ferro Volta Ampere Joule Kelvin Boreas Zephyr
Mistral Sirocco Tundra Taiga Mesa Ridge Delta Sigma Omega Alpha Gamma Kappa Lambda Theta Nexa Axiom
Lumen Photon Quanta Fusion Plasma Cinder Ember Flint Slate Shale Marble Onyx Jade Amber Garnet
Topaz Beryl Opal Halcyon Vantage Keel Rudder Anvil Forge Crucible Kiln Lathe Piston Turbine Dynamo
Rotor Stator Meridia Solano Verdant Cobaltia Aquila Cygnus Draco Pavo""".split()
MATERIALS = """Lithium Cobalt Nickel Graphite Copper Silicon Aluminium Manganese Zinc Sodium
Potassium Phosphate Polyethylene Polypropylene Steel Titanium Tungsten Vanadium Urea Ammonia
Ethanol Methanol Cotton Wool Soybean Wheat Maize Coffee Cocoa Rubber Nylon Polyester Glass Cement
Hydrogen Helium Neon Argon Magnesium Boron Iron Tin Lead Silver Gold Platinum Palladium""".split()
FORMS = """Hydroxide Carbonate Sulfate Cathode Anode Powder Pellets Ingot Wire Sheet Concentrate
Foil Granules Resin Fibre Module Cell Pack Film Tablet Solution Alloy Oxide Chloride Coil Rod Tube
Membrane""".split()
GRADES = [
    "Battery Grade", "Technical Grade", "Food Grade", "Premium", "99.5%", "99.9%", "Type A",
    "Type B", "Series 3", "Series 7", "Mk II", "HD", "Pro", "Ultra", "Lite",
]  # fmt: skip
SYLLABLES = (
    "Ka Ma Ta Sa Na Ra La Ba Da Ga Ko Mo To Lo Ro Ki Mi Ti Li Ri Zu Ku Nu Tu Ve Be Ne Pe Qui "
    "Cha Ya Wa Ha Jo Se".split(),
    "ran lan men ron bal tal gor vin dor sen mar lin var tor ral ben dal kan nor vas ria lon tan "
    "par".split(),
    ["", "", "", "ga", "go", "da", "ta", "ra", "na", "la", "ko", "mba", "ya", "ton", "ville",
     "burg", "dale", "ford"],
)  # fmt: skip
# (pattern, schema.org type): every type here folds into the "place" family.
PLACE_PATTERNS = [
    ("{} Mine", "Place"), ("Port of {}", "Place"), ("{} Industrial Park", "Place"),
    ("{} Refinery", "Place"), ("{} Smelter", "Place"), ("{} Terminal", "Place"),
    ("{} Deposit", "Place"), ("{} Basin", "Landform"), ("{} Valley", "Landform"),
    ("Lake {}", "Landform"), ("Mount {}", "Landform"), ("{} Plateau", "Landform"),
    ("Salar de {}", "Landform"), ("{} Free Trade Zone", "AdministrativeArea"), ("{}", "City"),
]  # fmt: skip
EVENT_KINDS = [
    "Strike", "Flood", "Export Ban", "Export Controls", "Sanctions", "Royalty Change",
    "Nationalisation", "Port Closure", "Wildfire", "Earthquake", "Drought", "Cyberattack",
    "Product Recall", "Plant Explosion", "Tariff Increase", "Protest", "Landslide",
    "Power Outage", "Factory Fire", "Labour Dispute", "Tailings Dam Failure", "Rail Blockade",
]  # fmt: skip
COUNTRIES = [
    ("cl", "Chile"), ("ar", "Argentina"), ("au", "Australia"), ("cn", "China"), ("bo", "Bolivia"),
    ("cd", "DR Congo"), ("us", "United States"), ("ca", "Canada"), ("de", "Germany"),
    ("fr", "France"), ("jp", "Japan"), ("kr", "South Korea"), ("in", "India"), ("br", "Brazil"),
    ("za", "South Africa"), ("id", "Indonesia"), ("ph", "Philippines"), ("pe", "Peru"),
    ("mx", "Mexico"), ("gb", "United Kingdom"), ("no", "Norway"), ("se", "Sweden"),
    ("fi", "Finland"), ("pl", "Poland"), ("es", "Spain"), ("it", "Italy"), ("nl", "Netherlands"),
    ("ch", "Switzerland"), ("tr", "Turkey"), ("eg", "Egypt"), ("ng", "Nigeria"), ("ke", "Kenya"),
    ("zm", "Zambia"), ("zw", "Zimbabwe"), ("na", "Namibia"), ("ma", "Morocco"),
    ("sa", "Saudi Arabia"), ("ae", "United Arab Emirates"), ("vn", "Vietnam"),
    ("th", "Thailand"), ("my", "Malaysia"), ("nz", "New Zealand"),
]  # fmt: skip
DOMAINS = {
    "org": ["supply_chain", "general_risk", "climate", "procurement", "clinical_trials"],
    "product": ["supply_chain", "procurement"],
    "place": ["supply_chain", "climate", "general_risk"],
    "event": ["general_risk", "climate", "supply_chain"],
}
FAMILY = {"org": "organization", "product": "product", "place": "place", "event": "event"}
KIND_WEIGHTS = {"org": 0.40, "product": 0.25, "place": 0.15, "event": 0.20}
PUBLISHERS = [f"0x{random.Random(i).getrandbits(160):040x}" for i in range(8)]
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
EPOCH = datetime(2023, 1, 1, tzinfo=UTC)


def _zipf(words: list[str], exponent: float = 0.9) -> list[float]:
    return [1.0 / (rank + 1) ** exponent for rank in range(len(words))]


CORE_WEIGHTS = _zipf(ORG_CORES)
SECTOR_WEIGHTS = _zipf(ORG_SECTORS)
MATERIAL_WEIGHTS = _zipf(MATERIALS)


@dataclass(frozen=True, slots=True)
class Record:
    """What the benchmark needs to know of one stored asset to query for it."""

    ual: str
    kind: str
    type: str
    name: str
    stem: str  # the name without its legal form
    identifier: str


# -- generator ------------------------------------------------------------------------------


class Corpus:
    """Deterministic stream of `{"asset", "metadata"}` items; remembers each one as a Record."""

    def __init__(self, size: int, seed: int) -> None:
        self.size = size
        self.rng = random.Random(seed)
        self.records: list[Record] = []
        self.near_duplicates = 0
        self._used: set[tuple[str, str]] = set()
        self._iris: dict[str, list[str]] = {"org": [], "place": []}
        self._place_names: list[str] = []

    # names --------------------------------------------------------------------------------

    def _root(self) -> str:
        a, b, c = (self.rng.choice(s) for s in SYLLABLES)
        return a + b + c

    def _org_stem(self) -> str:
        rng = self.rng
        words = [rng.choice(ORG_PREFIXES), rng.choices(ORG_CORES, CORE_WEIGHTS)[0]]
        if rng.random() < 0.7:
            words.append(rng.choices(ORG_SECTORS, SECTOR_WEIGHTS)[0])
        return " ".join(words)

    def _product_name(self) -> str:
        rng = self.rng
        words = [
            rng.choice(BRANDS),
            rng.choices(MATERIALS, MATERIAL_WEIGHTS)[0],
            rng.choice(FORMS),
        ]
        if rng.random() < 0.7:
            words.append(rng.choice(GRADES))
        return " ".join(words)

    def _place_name(self) -> tuple[str, str]:
        pattern, type_ = self.rng.choice(PLACE_PATTERNS)
        return pattern.format(self._root()), type_

    def _event_name(self) -> str:
        rng = self.rng
        where = self._root() if not self._place_names or rng.random() < 0.5 else None
        if where is None:
            where = rng.choice(self._place_names)
        kind, year = rng.choice(EVENT_KINDS), rng.randint(2015, 2025)
        return f"{year} {where} {kind}" if rng.random() < 0.5 else f"{where} {kind} {year}"

    def fresh_name(self, kind: str) -> tuple[str, str, str]:
        """(name, stem, @type) not yet used by any stored asset of that family."""
        rng = self.rng
        for attempt in range(1000):
            if kind == "org":
                stem = self._org_stem()
                if attempt > 20:  # the common combinations are taken: add a rarer word
                    stem = f"{self._root()} {stem}"
                legal = rng.choice(LEGAL_FORMS) if rng.random() < 0.8 else ""
                name = f"{stem} {legal}".strip()
                type_ = "Corporation" if rng.random() < 0.6 else "Organization"
            elif kind == "product":
                name = stem = self._product_name()
                type_ = "Product"
            elif kind == "place":
                name, type_ = self._place_name()
                stem = name
            else:
                name = stem = self._event_name()
                type_ = "Event"
            if (FAMILY[kind], normalise_name(name)) not in self._used:
                return name, stem, type_
        raise RuntimeError(f"name space exhausted for {kind}")

    def identifier(self, kind: str) -> str:
        rng = self.rng
        if kind == "org":  # LEI-shaped
            body = "".join(rng.choices(ALNUM, k=12))
            return f"{rng.randint(1000, 9999)}00{body}{rng.randint(10, 99)}"
        if kind == "product":  # GTIN-13-shaped
            return "".join(str(rng.randint(0, 9)) for _ in range(13))
        if kind == "place":
            return f"geonames:{rng.randint(1_000_000, 9_999_999)}"
        return f"EVT-{rng.getrandbits(40):010X}"

    def variant(self, rec: Record) -> str:
        """Another spelling of a stored name that normalises to the same name."""
        rng = self.rng
        choice = rng.randrange(4)
        if rec.kind == "org" and choice == 0:
            return f"{rec.stem} {rng.choice(LEGAL_FORMS)}"
        if choice == 1:
            return rec.name.upper()
        if choice == 2:
            return rec.name.lower()
        words = rec.name.split(" ")
        if len(words) < 2:
            return rec.name.upper()
        i = rng.randrange(len(words) - 1)
        return " ".join(words[:i] + [f"{words[i]}-{words[i + 1]}"] + words[i + 2 :])[:200]

    # assets -------------------------------------------------------------------------------

    def _asset(
        self, kind: str, serial: int, name: str, stem: str, type_: str, ident: str
    ) -> dict[str, Any]:
        rng = self.rng
        iri = f"urn:kminer:{kind}:{serial}"
        doc: dict[str, Any] = {
            "@context": CONTEXT,
            "@type": type_,
            "@id": iri,
            "name": name,
            "identifier": ident,
        }
        code, country = rng.choice(COUNTRIES)
        if kind == "org":
            if rng.random() < 0.3:
                initials = "".join(w[0] for w in normalise_name(name).split() if w[0].isalpha())
                if len(initials) >= 2:
                    doc["alternateName"] = [initials.upper()]
            doc["description"] = (
                f"{stem.split()[1]} business headquartered in {country}, "
                f"supplier tier {rng.randint(1, 3)}."
            )
            doc["foundingDate"] = str(rng.randint(1890, 2022))
            doc["location"] = {"@id": f"urn:kminer:country:{code}"}
        elif kind == "product":
            doc["description"] = f"{name} supplied for {rng.choice(DOMAINS['product'])} use."
            if self._iris["org"]:
                doc["manufacturer"] = {"@id": rng.choice(self._iris["org"])}
            doc["countryOfOrigin"] = {"@id": f"urn:kminer:country:{code}"}
        elif kind == "place":
            doc["description"] = f"{type_} in {country}."
            doc["containedInPlace"] = {"@id": f"urn:kminer:country:{code}"}
            doc["latitude"] = round(rng.uniform(-55.0, 70.0), 4)
            doc["longitude"] = round(rng.uniform(-170.0, 175.0), 4)
        else:
            year = next((w for w in name.split() if w.isdigit()), "2024")
            start = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            doc["description"] = f"Disruption reported in {country}."
            doc["startDate"] = start
            doc["keywords"] = next((k.lower() for k in EVENT_KINDS if k in name), "disruption")
            if self._iris["place"]:
                doc["location"] = {"@id": rng.choice(self._iris["place"])}
            if self._iris["org"] and rng.random() < 0.6:
                doc["about"] = {"@id": rng.choice(self._iris["org"])}
        return doc

    def _metadata(self, kind: str, near_duplicate: bool) -> dict[str, Any]:
        rng = self.rng
        # Log-uniform over 1,000-500,000 in steps of 500; copies are usually less trusted.
        high = 50_000 if near_duplicate else 500_000
        stake = round(math.exp(rng.uniform(math.log(1_000), math.log(high))) / 500) * 500
        when = EPOCH + timedelta(seconds=rng.randrange(900 * 86_400))
        return {
            "stakeAmount": min(max(stake, 1_000), 500_000),
            "publisher": rng.choice(PUBLISHERS),
            "publishTime": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "updateCount": rng.choice((0, 0, 0, 1, 2)),
            "domain": rng.choice(DOMAINS[kind]),
        }

    def items(self) -> Iterator[dict[str, Any]]:
        rng = self.rng
        kinds, weights = list(KIND_WEIGHTS), list(KIND_WEIGHTS.values())
        for serial in range(self.size):
            original = None
            if len(self.records) >= 100 and rng.random() < NEAR_DUPLICATE_SHARE:
                # Events are news items: copies of those are a different problem.
                original = rng.choice(self.records)
                while original.kind == "event":
                    original = rng.choice(self.records)
            if original is not None:
                kind, type_ = original.kind, original.type
                if kind == "org":
                    type_ = rng.choice(("Corporation", "Organization"))
                if rng.random() < 0.6:  # same name spelled differently, own identifier
                    name, stem, ident = self.variant(original), original.stem, self.identifier(kind)
                else:  # same identifier, a name that drifted
                    ident = original.identifier
                    name = stem = f"{original.stem} {rng.choice(('International', 'Holdings'))}"
                self.near_duplicates += 1
            else:
                kind = rng.choices(kinds, weights)[0]
                name, stem, type_ = self.fresh_name(kind)
                ident = self.identifier(kind)
            doc = self._asset(kind, serial, name, stem, type_, ident)
            meta = self._metadata(kind, original is not None)
            self._used.add((FAMILY[kind], normalise_name(name)))
            if kind in self._iris:
                self._iris[kind].append(doc["@id"])
            if kind == "place" and type_ in ("City", "Place"):
                self._place_names.append(name)
            ual = f"{UAL_PREFIX}{len(self.records) + 1}"
            self.records.append(Record(ual, kind, type_, name, stem, ident))
            yield {"asset": doc, "metadata": meta}


# -- query sets -----------------------------------------------------------------------------


def partial_query(rec: Record, rng: random.Random) -> str:
    """What an agent might type for a stored asset without knowing its exact label."""
    words = rec.stem.split()
    style = rng.randrange(4) if len(words) >= 2 else 3
    if style == 0:  # name without its legal form, lower case
        return rec.stem.lower()
    if style == 1:  # two of its words
        i, j = sorted(rng.sample(range(len(words)), 2))
        return f"{words[i]} {words[j]}"
    if style == 2:  # typed-ahead prefix
        return f"{words[0]} {words[1][: max(3, len(words[1]) // 2)]}"
    return rng.choice(words)  # one token


def candidate(corpus: Corpus, rng: random.Random, duplicate: bool) -> dict[str, Any]:
    """An asset an agent is about to publish: a copy of a stored one, or a new one."""
    if duplicate:
        rec = rng.choice(corpus.records)
        doc: dict[str, Any] = {"@context": CONTEXT, "@type": rec.type, "name": corpus.variant(rec)}
        if rng.random() < 0.5:
            doc["identifier"] = rec.identifier
        return doc
    kind = rng.choices(list(KIND_WEIGHTS), list(KIND_WEIGHTS.values()))[0]
    name, _, type_ = corpus.fresh_name(kind)
    return {
        "@context": CONTEXT,
        "@type": type_,
        "name": name,
        "identifier": corpus.identifier(kind),
    }


# -- measurement ----------------------------------------------------------------------------


def percentile(sorted_ms: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(pct / 100 * len(sorted_ms)))
    return sorted_ms[min(rank, len(sorted_ms)) - 1]


@dataclass
class Timings:
    name: str
    ms: list[float]

    def row(self) -> str:
        s = sorted(self.ms)
        cells = [percentile(s, 50), percentile(s, 95), percentile(s, 99), s[-1]]
        return f"{self.name:<32}{len(s):>6}" + "".join(f"{c:>10.2f}" for c in cells)

    @property
    def p95(self) -> float:
        return percentile(sorted(self.ms), 95)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    out = fn()
    return (time.perf_counter() - started) * 1000, out


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_rss_mb()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def dir_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def count(dkg: EmbeddedDkg, sparql: str) -> int:
    value = dkg.query(sparql, timeout_s=600).rows[0]["n"]
    return int(value) if isinstance(value, int | float | str) else 0


# -- main -----------------------------------------------------------------------------------


def open_store(args: argparse.Namespace, root: Path) -> tuple[EmbeddedDkg, Corpus, Path]:
    corpus = Corpus(args.assets, args.seed)
    name = f"dkg-{args.assets}-seed{args.seed}-v{GENERATOR_VERSION}"
    path, marker = root / name, root / f"{name}.json"
    if marker.exists() and path.is_dir():
        info = json.loads(marker.read_text(encoding="utf-8"))
        dkg = EmbeddedDkg(path)
        for _ in corpus.items():  # regenerate the records (names, UALs) without storing
            pass
        print(f"reusing store {path} (built {info['built_at']} in {info['build_s']:.1f} s)")
        return dkg, corpus, path
    if path.exists():  # an interrupted build of ours
        shutil.rmtree(path)
    dkg = EmbeddedDkg(path)
    print(f"building {args.assets:,} assets into {path} (loader: {args.loader}) ...", flush=True)
    started = time.perf_counter()
    if args.loader == "bulk":
        created = dkg.bulk_load(corpus.items())
    else:
        created = 0
        for item in corpus.items():
            meta = item["metadata"]
            result = dkg.publish(
                item["asset"],
                publisher=meta["publisher"],
                stake_amount=float(meta["stakeAmount"]),
                domain=meta["domain"],
                publish_time=meta["publishTime"],
                update_count=meta["updateCount"],
            )
            created += int(result.created)
    build_s = time.perf_counter() - started
    print(
        f"build: {created:,} assets in {build_s:.1f} s ({created / build_s:,.0f} assets/s), "
        f"{corpus.near_duplicates:,} deliberate near-duplicates "
        f"({corpus.near_duplicates / max(created, 1):.1%})"
    )
    built_at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    marker.write_text(json.dumps({"build_s": build_s, "built_at": built_at}), encoding="utf-8")
    return dkg, corpus, path


def run(args: argparse.Namespace, root: Path) -> None:
    wall = time.perf_counter()
    dkg, corpus, path = open_store(args, root)
    try:
        kinds = {k: sum(r.kind == k for r in corpus.records) for k in KIND_WEIGHTS}
        print("mix: " + ", ".join(f"{k} {v:,}" for k, v in kinds.items()))
        if dkg.count_assets() != len(corpus.records):
            print(f"WARNING: store holds {dkg.count_assets():,} assets, expected "
                  f"{len(corpus.records):,}; quality figures below are unreliable")  # fmt: skip
        count_ms, total = timed(lambda: count(dkg, COUNT_ALL))
        meta = count(dkg, COUNT_META)
        print(
            f"triples: {total:,} (SPARQL COUNT, {count_ms / 1000:.1f} s): "
            f"{total - meta:,} in asset graphs + {meta:,} metadata; "
            f"store on disk {dir_mb(path):,.0f} MB; RSS {rss_mb():,.0f} MB"
        )

        rng = random.Random(f"{args.seed}-lookups")
        probe = rng.sample(corpus.records, min(20, len(corpus.records)))
        mismatched = [
            r.ual for r in probe if (m := dkg.get_metadata(r.ual)) is None or m.label != r.name
        ]
        if mismatched:
            print(f"WARNING: UALs do not match the generated records: {mismatched[:3]}")

        index_ms, _ = timed(lambda: dkg.find_related(corpus.records[0].name))
        print(f"index build (first lookup): {index_ms / 1000:.2f} s; RSS {rss_mb():,.0f} MB")

        # (a) label lookups, exact and partial interleaved in a seeded random order.
        half = args.lookups // 2
        queries = [(True, r, r.name) for r in rng.choices(corpus.records, k=half)]
        queries += [
            (False, r, partial_query(r, rng))
            for r in rng.choices(corpus.records, k=args.lookups - half)
        ]
        rng.shuffle(queries)
        exact_ms, partial_ms = Timings("  exact label", []), Timings("  partial / token query", [])
        exact_hits = partial_hits = partial_nonempty = 0
        for exact, rec, text in queries:
            ms, hits = timed(lambda text=text: dkg.find_related(text))
            found = any(h.ual == rec.ual for h in hits)
            if exact:
                exact_ms.ms.append(ms)
                exact_hits += found
            else:
                partial_ms.ms.append(ms)
                partial_hits += found
                partial_nonempty += bool(hits)
        label = Timings("label lookup (find_related)", exact_ms.ms + partial_ms.ms)

        # (b) duplicate checks.
        cands = [(True, candidate(corpus, rng, True)) for _ in range(half)]
        cands += [(False, candidate(corpus, rng, False)) for _ in range(args.lookups - half)]
        rng.shuffle(cands)
        dup_ms, novel_ms = Timings("  duplicate candidates", []), Timings("  novel candidates", [])
        dup_flagged = novel_flagged = 0
        for is_dup, doc in cands:
            ms, found = timed(lambda doc=doc: dkg.find_duplicates(doc))
            (dup_ms if is_dup else novel_ms).ms.append(ms)
            if is_dup:
                dup_flagged += bool(found)
            else:
                novel_flagged += bool(found)
        dups = Timings("duplicate check (find_dupl.)", dup_ms.ms + novel_ms.ms)

        # (c) SPARQL over the metadata graph, for reference.
        sparql = Timings("SPARQL stake>50k LIMIT 100", [])
        rows = 0
        for _ in range(args.lookups):
            ms, result = timed(lambda: dkg.query(STAKE_QUERY))
            sparql.ms.append(ms)
            rows = len(result.rows)

        print()
        print(f"{'operation':<32}{'n':>6}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'max ms':>10}")
        print("-" * 78)
        for t in (label, exact_ms, partial_ms, dups, dup_ms, novel_ms, sparql):
            if t.ms:
                print(t.row())
        print("-" * 78)
        print(
            f"quality: exact label -> asset in top 10: {exact_hits / max(half, 1):.1%}; "
            f"partial -> non-empty {partial_nonempty / max(len(partial_ms.ms), 1):.1%}, "
            f"asset in top 10 {partial_hits / max(len(partial_ms.ms), 1):.1%}"
        )
        print(
            f"         duplicates flagged {dup_flagged / max(len(dup_ms.ms), 1):.1%}; "
            f"novel flagged {novel_flagged / max(len(novel_ms.ms), 1):.1%}; "
            f"SPARQL rows {rows}"
        )
        print(
            f"total {time.perf_counter() - wall:.1f} s; "
            f"RSS {rss_mb():,.0f} MB (peak {peak_rss_mb():,.0f} MB)"
        )
        print()
        for what, t, target in (
            ("label lookup", label, LABEL_TARGET_MS),
            ("duplicate check", dups, DUPLICATE_TARGET_MS),
        ):
            verdict = "PASS" if t.p95 < target else "FAIL"
            print(f"{what} p95 < {target:g} ms: {verdict} ({t.p95:.2f} ms)")
    finally:
        dkg.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--assets", type=int, default=100_000, help="assets to generate")
    parser.add_argument("--lookups", type=int, default=2_000, help="timed calls per operation")
    parser.add_argument("--dir", type=Path, help="keep (and reuse) the store under this dir")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--loader",
        choices=("bulk", "publish"),
        default="bulk",
        help="bulk_load (default) or one publish() per asset, to compare",
    )
    args = parser.parse_args(argv)
    if args.assets < 1 or args.lookups < 2:
        parser.error("--assets must be >= 1 and --lookups >= 2")
    print(
        f"DKG benchmark: {args.assets:,} assets, {args.lookups:,} lookups per operation, "
        f"seed {args.seed}"
    )
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        run(args, args.dir)
    else:
        with tempfile.TemporaryDirectory(prefix="kminer-dkg-bench-") as tmp:
            run(args, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
