"""The synthetic Knowledge Assets of bench/dkg.py, and the lookups an agent would make.

`Corpus` yields N assets (Organizations, Products, Places and Events named from
combinatorial word lists, with identifiers, descriptions, relations between them, stakes
of 1,000-500,000 and ~2% deliberate near-duplicates), deterministic for a seed, and
remembers each as a `Record`; `partial_query` and `candidate` turn stored records into
the label queries and the publish candidates the benchmark times.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from mining.names import normalise_name
from storage.dkg.embedded_records import UAL_PREFIX

NEAR_DUPLICATE_SHARE = 0.02
# Stores built by another generator version are rebuilt instead of reused.
GENERATOR_VERSION = 1
CONTEXT = "https://schema.org/"

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
