"""Build the demo seed Knowledge Assets: `python -m storage.dkg.seed_build` rewrites seed/.

Entities are curated by hand below, one function per domain. Everything derived
(LEI-like identifiers, stakes inside a tier, publish times, update counts) comes
from a hash of the asset id, so a rebuild is byte-identical and a fresh store
always mints the same UALs. The data is demo data: plausible, not authoritative.
Deliberate near-duplicates and conflicting facts are marked `# conflict`.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SEED_DIR = Path(__file__).parent / "seed"
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


# ---- curated entities -------------------------------------------------------------------
# Hand-aligned data tables read better than one-argument-per-line formatting.
# fmt: off


def supply_chain(s: Seed) -> None:
    d = "supply_chain"
    o = s.org
    o(d, "albemarle", "Albemarle Corporation", ["Albemarle"], "US", "Charlotte",
      "US speciality chemicals group and one of the largest lithium producers, with brine "
      "operations in the Salar de Atacama, a stake in the Greenbushes mine through Talison "
      "Lithium and hydroxide conversion at Kemerton.", stake=500_000, founded="1994",
      employees=9000, location=["@place:salar-de-atacama", "@place:la-negra",
                                "@place:kemerton", "@place:wodgina"],
      subOrganization="@org:talison")
    o(d, "sqm", "Sociedad Química y Minera de Chile S.A.", ["SQM"], "CL", "Santiago",
      "Chilean producer of lithium carbonate, lithium hydroxide, potassium nitrate and iodine "
      "that operates in the Salar de Atacama under a lease from CORFO.", stake=420_000,
      founded="1968", employees=7800,
      location=["@place:salar-de-atacama", "@place:mt-holland"])
    o(d, "ganfeng", "Ganfeng Lithium Co., Ltd.", ["Ganfeng Lithium", "Ganfeng"], "CN", "Xinyu",
      "Chinese lithium compounds and battery producer with upstream interests in Argentina, "
      "Australia, Mali and Mexico and a major supplier of lithium hydroxide to cell makers.",
      stake=350_000, founded="2000", employees=17000,
      location=["@place:mount-marion", "@place:cauchari-olaroz", "@place:mariana",
                "@place:goulamina", "@place:yichun"])
    o(d, "tianqi", "Tianqi Lithium Corporation", ["Tianqi Lithium", "Tianqi"], "CN", "Chengdu",
      "Chinese lithium producer that controls Talison Lithium (Greenbushes) together with IGO "
      "and holds a large minority stake in SQM.", stake=310_000, founded="1995",
      employees=5600, subOrganization="@org:tlea", location="@place:greenbushes")
    o(d, "pilbara", "Pilbara Minerals Limited", ["Pilbara Minerals"], "AU", "Perth",
      "Australian hard-rock lithium miner that owns the Pilgangoora project and sells "
      "spodumene concentrate to Chinese and Korean converters.", stake=180_000,
      founded="2005", employees=1200, location="@place:pilgangoora")
    o(d, "arcadium", "Arcadium Lithium plc", ["Arcadium Lithium", "Arcadium"], "US",
      "Philadelphia", "Lithium chemicals producer formed in January 2024 by the merger of "
      "Livent and Allkem, with brine assets in Argentina and hard-rock assets in Australia and "
      "Canada; acquired by Rio Tinto in 2025.", stake=160_000, founded="2024", employees=2600,
      subOrganization=["@org:livent", "@org:allkem"],
      location=["@place:hombre-muerto", "@place:olaroz"], parentOrganization="@org:rio-tinto")
    o(d, "livent", "Livent Corporation", ["Livent"], "US", "Philadelphia",
      "Lithium hydroxide and lithium metal producer spun off from FMC, operating the Fénix "
      "brine operation in the Salar del Hombre Muerto; now part of Arcadium Lithium.",
      stake=60_000, founded="2018", employees=1350, location="@place:hombre-muerto",
      parentOrganization="@org:arcadium")
    o(d, "allkem", "Allkem Limited", ["Allkem"], "AU", "Brisbane",
      "Australian lithium producer formed from Orocobre and Galaxy Resources, operator of "
      "the Olaroz brine operation; merged into Arcadium Lithium.", stake="M", founded="2021",
      location="@place:olaroz", parentOrganization="@org:arcadium")
    o(d, "minres", "Mineral Resources Limited", ["Mineral Resources", "MinRes"], "AU", "Perth",
      "Australian mining services and lithium company with interests in the Wodgina and "
      "Mount Marion mines.", stake=210_000, founded="1992", employees=7000,
      location=["@place:wodgina", "@place:mount-marion"])
    o(d, "igo", "IGO Limited", ["IGO"], "AU", "Perth",
      "Australian miner that owns 49% of Tianqi Lithium Energy Australia and through it an "
      "indirect interest in the Greenbushes mine.", stake=90_000, founded="2000",
      subOrganization="@org:tlea")
    o(d, "talison", "Talison Lithium Pty Ltd", ["Talison Lithium", "Talison"], "AU",
      "Greenbushes", "Operator of the Greenbushes mine, owned 51% by Tianqi Lithium Energy "
      "Australia and 49% by Albemarle.", stake=140_000, employees=1100,
      location="@place:greenbushes", parentOrganization=["@org:tlea", "@org:albemarle"])
    o(d, "tlea", "Tianqi Lithium Energy Australia", ["TLEA"], "AU", "Kwinana",
      "Joint venture of Tianqi Lithium (51%) and IGO (49%) that holds 51% of Talison Lithium "
      "and runs the Kwinana lithium hydroxide refinery.", stake="M", founded="2021",
      parentOrganization=["@org:tianqi", "@org:igo"], location="@place:kwinana")
    o(d, "sigma", "Sigma Lithium Corporation", ["Sigma Lithium"], "CA", "Vancouver",
      "Canadian-listed producer of spodumene concentrate at Grota do Cirilo in Brazil.",
      stake="M", location="@place:grota-do-cirilo")
    o(d, "lithium-americas", "Lithium Americas Corp.", ["Lithium Americas"], "US", "Reno",
      "Developer of the Thacker Pass lithium project in Nevada.", stake="M",
      location="@place:thacker-pass")
    o(d, "liontown", "Liontown Resources Limited", ["Liontown Resources", "Liontown"], "AU",
      "Perth", "Australian developer of the Kathleen Valley spodumene mine.", stake="M")
    o(d, "codelco", "Corporación Nacional del Cobre de Chile", ["Codelco"], "CL", "Santiago",
      "Chilean state copper company given the lead role in the state's lithium strategy "
      "and partner of SQM in the Salar de Atacama from 2025.", stake=150_000, founded="1976",
      employees=16000, location="@place:salar-de-atacama")
    o(d, "ylb", "Yacimientos de Litio Bolivianos", ["YLB"], "BO", "La Paz",
      "Bolivian state lithium company that controls the Salar de Uyuni.", stake=40_000,
      founded="2017", location="@place:salar-de-uyuni")
    o(d, "catl", "Contemporary Amperex Technology Co., Limited", ["CATL"], "CN", "Ningde",
      "World's largest lithium-ion battery maker, a large buyer of lithium carbonate and "
      "lithium hydroxide.", stake=260_000, founded="2011", employees=132000)
    o(d, "byd", "BYD Company Limited", ["BYD"], "CN", "Shenzhen",
      "Chinese electric vehicle and battery manufacturer with LFP cell production.",
      stake=200_000, founded="1995", employees=900000)
    o(d, "lges", "LG Energy Solution, Ltd.", ["LG Energy Solution"], "KR", "Seoul",
      "Korean battery cell manufacturer with long-term lithium supply agreements.",
      stake=120_000, founded="2020")
    o(d, "panasonic-energy", "Panasonic Energy Co., Ltd.", ["Panasonic Energy"], "JP", "Osaka",
      "Japanese cylindrical cell maker supplying electric vehicle makers.", stake="H")
    o(d, "tesla", "Tesla, Inc.", ["Tesla"], "US", "Austin",
      "Electric vehicle and energy storage company that buys lithium chemicals and "
      "spodumene concentrate under offtake agreements.", stake=230_000, founded="2003",
      employees=125000)
    o(d, "samsung-sdi", "Samsung SDI Co., Ltd.", ["Samsung SDI"], "KR", "Yongin",
      "Korean battery maker.", stake="M", founded="1970")
    o(d, "zijin", "Zijin Mining Group Co., Ltd.", ["Zijin Mining"], "CN", "Xiamen",
      "Chinese gold, copper and lithium miner that partnered with Cominière on the Manono "
      "lithium deposit.", stake=110_000, founded="1993", location="@place:manono")
    o(d, "avz", "AVZ Minerals Limited", ["AVZ Minerals"], "AU", "Perth",
      "Australian junior that held a majority interest in the Manono lithium project before a "
      "licence dispute in the DR Congo.", stake="L", location="@place:manono")
    o(d, "cominiere", "La Congolaise d'Exploitation Minière", ["Cominière"], "CD", "Lubumbashi",
      "Congolese state-owned mining company and partner in the Manono lithium project.",
      stake="L", location="@place:manono")
    o(d, "cmoc", "CMOC Group Limited", ["CMOC"], "CN", "Luoyang",
      "Chinese miner and the largest cobalt producer, with copper-cobalt mines in the "
      "DR Congo.", stake="M")
    o(d, "huayou", "Zhejiang Huayou Cobalt Co., Ltd.", ["Huayou Cobalt"], "CN", "Tongxiang",
      "Chinese cobalt and battery materials group that owns the Arcadia lithium mine in "
      "Zimbabwe.", stake="M", location="@place:arcadia", subOrganization="@org:prospect")
    o(d, "prospect", "Prospect Lithium Zimbabwe", [], "ZW", "Harare",
      "Huayou Cobalt subsidiary operating the Arcadia mine.", stake="L",
      parentOrganization="@org:huayou", location="@place:arcadia")
    o(d, "sinomine", "Sinomine Resource Group Co., Ltd.", ["Sinomine"], "CN", "Beijing",
      "Chinese company that owns the Bikita lithium mine in Zimbabwe.", stake="L",
      location="@place:bikita")
    o(d, "yahua", "Sichuan Yahua Industrial Group Co., Ltd.", ["Yahua"], "CN", "Chengdu",
      "Chinese lithium hydroxide converter and buyer of Australian spodumene.", stake="L")
    o(d, "chengxin", "Chengxin Lithium Group Co., Ltd.", ["Chengxin Lithium"], "CN", "Chengdu",
      "Chinese lithium converter with interests in Argentina and Zimbabwe.", stake="L")
    o(d, "posco", "POSCO Holdings Inc.", ["POSCO"], "KR", "Pohang",
      "Korean steel and battery materials group building lithium hydroxide capacity with "
      "Pilbara Minerals.", stake=95_000, founded="1968")
    o(d, "eramet", "Eramet SA", ["Eramet"], "FR", "Paris",
      "French miner producing lithium carbonate in the Centenario salar in Argentina.",
      stake="M", founded="1880")
    o(d, "piedmont", "Piedmont Lithium Inc.", ["Piedmont Lithium"], "US", "Belmont",
      "US lithium developer that merged with Sayona Mining.", stake="L")
    o(d, "glencore", "Glencore plc", ["Glencore"], "CH", "Baar",
      "Commodity trader and miner, a major cobalt producer in the DR Congo.", stake="H")
    o(d, "covalent", "Covalent Lithium Pty Ltd", ["Covalent Lithium"], "AU", "Perth",
      "Joint venture of SQM and Wesfarmers developing the Mount Holland mine and the Kwinana "
      "hydroxide refinery.", stake="M", parentOrganization=["@org:sqm", "@org:wesfarmers"],
      location="@place:mt-holland")
    o(d, "wesfarmers", "Wesfarmers Limited", ["Wesfarmers"], "AU", "Perth",
      "Australian conglomerate and partner of SQM in Covalent Lithium.", stake="M",
      subOrganization="@org:covalent")
    o(d, "rio-tinto", "Rio Tinto Group", ["Rio Tinto"], "GB", "London",
      "Global miner that acquired Arcadium Lithium and owns the Jadar lithium-borate project "
      "in Serbia.", stake=300_000, founded="1873", employees=57000,
      subOrganization="@org:arcadium", location="@place:jadar")
    # conflict: near-duplicates with low stake and disagreeing facts
    s.add(d, "org:ganfeng-lithium-2", "Corporation", "Ganfeng Lithium",
          "Lithium producer headquartered in Jiangxi province.", stake=1_500, pub="community",
          ident=lei("org:ganfeng"), foundingDate="2001", numberOfEmployees=14000,
          address={"@type": "PostalAddress", "addressCountry": "CN"})
    s.add(d, "org:albemarle-corp", "Corporation", "Albemarle Corp.",
          "Lithium and bromine producer.", stake=2_000, pub="community", foundingDate="1887",
          numberOfEmployees=7400, address={"@type": "PostalAddress", "addressCountry": "US"})
    s.add(d, "org:tianqi-lithium-corp", "Corporation", "Tianqi Lithium Corp",
          "Lithium producer with Australian refining assets.", stake=1_000, pub="community",
          ident=lei("org:tianqi"), address={"@type": "PostalAddress", "addressCountry": "AU"})
    s.add(d, "org:sqm-sa", "Corporation", "SQM S.A.",
          "Chilean lithium and fertiliser company.", stake=3_000, pub="community",
          foundingDate="1972", address={"@type": "PostalAddress", "addressCountry": "CL"})
    s.add(d, "org:pilbara-minerals-ltd", "Corporation", "Pilbara Minerals Ltd",
          "Spodumene miner in Western Australia.", stake=2_500, pub="community",
          ident=lei("org:pilbara"), numberOfEmployees=900)

    products = [
        ("lithium-carbonate", "Lithium carbonate", ["Li2CO3", "battery-grade lithium carbonate"],
         "Lithium salt produced mainly from brine; feedstock for LFP cathodes.", 120_000, None),
        ("lithium-hydroxide", "Lithium hydroxide monohydrate", ["Lithium hydroxide", "LiOH"],
         "Lithium chemical preferred for high-nickel cathodes.", 110_000, None),
        ("spodumene", "Spodumene concentrate", ["SC6", "spodumene"],
         "Hard-rock lithium mineral concentrate (about 6% Li2O) converted to chemicals, mostly "
         "in China.", 90_000, None),
        ("lepidolite", "Lepidolite concentrate", ["lepidolite"],
         "Lower-grade lithium mica concentrate mined around Yichun.", "M", None),
        ("lithium-metal", "Lithium metal", [], "Metallic lithium for anodes and alloys.", "M",
         "@org:livent"),
        ("lfp-cell", "LFP battery cell", ["lithium iron phosphate cell"],
         "Lithium iron phosphate cell chemistry.", "M", ["@org:catl", "@org:byd"]),
        ("nmc-cathode", "NMC cathode material", [], "Nickel manganese cobalt cathode.", "M",
         "@org:posco"),
        ("cobalt-hydroxide", "Cobalt hydroxide", [], "Intermediate cobalt product from the "
         "DR Congo.", "M", ["@org:cmoc", "@org:glencore"]),
        ("graphite-anode", "Natural graphite anode material", ["graphite anode"],
         "Spherical graphite used in lithium-ion anodes.", "M", None),
        ("nickel-sulphate", "Nickel sulphate", [], "Battery-grade nickel salt.", "L", None),
        ("ganfeng-lioh", "Ganfeng battery-grade lithium hydroxide", [],
         "Lithium hydroxide from Ganfeng's Jiangxi converters.", "H", "@org:ganfeng"),
        ("albemarle-lioh", "Kemerton lithium hydroxide", [],
         "Lithium hydroxide from the Kemerton plant.", "M", "@org:albemarle"),
        ("kwinana-lioh", "Kwinana lithium hydroxide", [],
         "Lithium hydroxide from the Kwinana refinery.", "M", "@org:tlea"),
        ("sqm-carbonate", "SQM lithium carbonate", [],
         "Lithium carbonate from the Salar del Carmen plant fed by Salar de Atacama brine.",
         "H", "@org:sqm"),
        ("pilgangoora-sc", "Pilgangoora spodumene concentrate", [],
         "Spodumene concentrate shipped through Port Hedland.", "M", "@org:pilbara"),
        ("greenbushes-sc", "Greenbushes chemical-grade spodumene", [],
         "High-grade spodumene concentrate from the Greenbushes mine.", "H", "@org:talison"),
        ("olaroz-carbonate", "Olaroz lithium carbonate", [], "Brine-based carbonate from "
         "Olaroz.", "M", "@org:arcadium"),
        ("tesla-4680", "Tesla 4680 cell", [], "Large-format cylindrical cell.", "L",
         "@org:tesla"),
    ]
    generic = {"ganfeng-lioh": "lithium-hydroxide", "albemarle-lioh": "lithium-hydroxide",
               "kwinana-lioh": "lithium-hydroxide", "sqm-carbonate": "lithium-carbonate",
               "pilgangoora-sc": "spodumene", "greenbushes-sc": "spodumene",
               "olaroz-carbonate": "lithium-carbonate"}
    for slug, name, alt, desc, stake, maker in products:
        like = generic.get(slug)
        s.add(d, f"product:{slug}", "Product", name, desc, stake=stake, alt=alt,
              manufacturer=maker, isSimilarTo=f"@product:{like}" if like else None,
              category="Lithium" if "lithium" in desc.lower() else "Battery materials")

    places = [
        ("salar-de-atacama", "Salar de Atacama", ["Atacama salt flat"], "Landform", "cl",
         "Salt flat in northern Chile holding the world's richest lithium brines, worked by SQM "
         "and Albemarle.", 150_000),
        ("greenbushes", "Greenbushes mine", ["Greenbushes", "Greenbushes lithium mine"], "Place",
         "au", "The largest hard-rock lithium mine, in Western Australia, operated by Talison "
         "Lithium.", 200_000),
        ("pilgangoora", "Pilgangoora project", ["Pilgangoora"], "Place", "au",
         "Pilbara Minerals' spodumene operation in Western Australia.", 70_000),
        ("mount-marion", "Mount Marion mine", ["Mt Marion"], "Place", "au",
         "Spodumene mine near Kalgoorlie jointly owned by Mineral Resources and Ganfeng "
         "Lithium.", "M"),
        ("wodgina", "Wodgina mine", ["Wodgina"], "Place", "au",
         "Spodumene mine jointly owned by Albemarle and Mineral Resources.", "M"),
        ("mt-holland", "Mount Holland mine", ["Mt Holland"], "Place", "au",
         "Covalent Lithium's spodumene mine.", "M"),
        ("kwinana", "Kwinana lithium hydroxide refinery", ["Kwinana refinery"], "Place", "au",
         "Hydroxide refinery of Tianqi Lithium Energy Australia.", "M"),
        ("kemerton", "Kemerton lithium hydroxide plant", ["Kemerton plant"], "Place", "au",
         "Albemarle's hydroxide plant south of Perth.", "M"),
        ("port-hedland", "Port Hedland", [], "Place", "au",
         "Export port for Pilbara spodumene.", "L"),
        ("la-negra", "La Negra plant", [], "Place", "cl",
         "Albemarle's lithium carbonate plant near Antofagasta.", "L"),
        ("salar-de-uyuni", "Salar de Uyuni", ["Uyuni salt flat"], "Landform", "bo",
         "The world's largest salt flat, controlled by YLB.", 70_000),
        ("hombre-muerto", "Salar del Hombre Muerto", [], "Landform", "ar",
         "Argentine salar hosting Livent's Fénix operation.", "M"),
        ("olaroz", "Salar de Olaroz", [], "Landform", "ar", "Salar in Jujuy province.", "M"),
        ("cauchari-olaroz", "Cauchari-Olaroz project", ["Cauchari-Olaroz"], "Place", "ar",
         "Brine project in Jujuy controlled by Ganfeng Lithium.", "M"),
        ("mariana", "Mariana lithium project", [], "Place", "ar",
         "Ganfeng brine project in Salta.", "L"),
        ("thacker-pass", "Thacker Pass", [], "Place", "us",
         "Claystone lithium project in Nevada.", "M"),
        ("manono", "Manono lithium project", ["Manono"], "Place", "cd",
         "Large spodumene deposit in Tanganyika province, DR Congo.", "M"),
        ("goulamina", "Goulamina mine", ["Goulamina"], "Place", "ml",
         "Spodumene mine in Mali owned by Ganfeng Lithium.", "M"),
        ("grota-do-cirilo", "Grota do Cirilo", [], "Place", "br",
         "Sigma Lithium's operation in Minas Gerais.", "L"),
        ("bikita", "Bikita mine", ["Bikita"], "Place", "zw", "Sinomine's lithium mine.", "L"),
        ("arcadia", "Arcadia lithium mine", ["Arcadia mine"], "Place", "zw",
         "Huayou Cobalt's mine near Harare.", "L"),
        ("yichun", "Yichun lepidolite district", ["Yichun"], "Place", "cn",
         "Lithium mica mining district in Jiangxi province.", "M"),
        ("jadar", "Jadar project", ["Jadar"], "Place", "rs",
         "Rio Tinto's lithium-borate project in Serbia.", "L"),
    ]
    for slug, name, alt, type_, country, desc, stake in places:
        s.add(d, f"place:{slug}", type_, name, desc, stake=stake, alt=alt,
              containedInPlace=f"@country:{country}")

    deals = [
        ("ganfeng-tesla", "ganfeng", "tesla", "ganfeng-lioh", "2022-06-01",
         "Ganfeng Lithium supplies battery-grade lithium hydroxide to Tesla.", "H"),
        ("ganfeng-lges", "ganfeng", "lges", "lithium-hydroxide", "2022-01-10",
         "Ganfeng Lithium supplies lithium hydroxide to LG Energy Solution.", "M"),
        ("pilbara-ganfeng", "pilbara", "ganfeng", "pilgangoora-sc", "2021-09-15",
         "Pilbara Minerals supplies spodumene concentrate to Ganfeng Lithium.", "M"),
        ("pilbara-posco", "pilbara", "posco", "pilgangoora-sc", "2021-02-01",
         "Pilbara Minerals supplies spodumene concentrate to POSCO.", "M"),
        ("pilbara-yahua", "pilbara", "yahua", "spodumene", "2022-05-20",
         "Pilbara Minerals supplies spodumene concentrate to Yahua.", "L"),
        ("sqm-lges", "sqm", "lges", "sqm-carbonate", "2022-11-01",
         "SQM supplies lithium carbonate and hydroxide to LG Energy Solution.", "H"),
        ("liontown-tesla", "liontown", "tesla", "spodumene", "2022-02-14",
         "Liontown Resources supplies spodumene concentrate to Tesla.", "M"),
        ("sigma-lges", "sigma", "lges", "spodumene", "2023-01-31",
         "Sigma Lithium supplies spodumene concentrate to LG Energy Solution.", "L"),
        ("livent-tesla", "livent", "tesla", "lithium-hydroxide", "2020-09-01",
         "Livent supplies lithium hydroxide to Tesla.", "M"),
        ("tianqi-catl", "tianqi", "catl", "lithium-carbonate", "2023-03-01",
         "Tianqi Lithium supplies lithium carbonate to CATL.", "H"),
        ("minres-ganfeng", "minres", "ganfeng", "spodumene", "2021-07-01",
         "Mineral Resources supplies Mount Marion spodumene to Ganfeng Lithium.", "M"),
        ("talison-albemarle", "talison", "albemarle", "greenbushes-sc", "2019-01-01",
         "Talison Lithium supplies Greenbushes spodumene to Albemarle.", "M"),
    ]
    for slug, seller, buyer, item, start, desc, stake in deals:
        s.add(d, f"deal:{slug}", "SellAction", f"{desc.split(' supplies ')[0]} to "
              f"{desc.rsplit(' to ', 1)[1].rstrip('.')} lithium supply agreement", desc,
              stake=stake, pub="riskdesk", agent=f"@org:{seller}", buyer=f"@org:{buyer}",
              object=f"@product:{item}", startTime=start)


def general_risk(s: Seed) -> None:
    d = "general_risk"
    countries = [
        ("cl", "Chile", ["Republic of Chile"], 220_000,
         "Second-largest lithium producer; lithium is a strategic mineral reserved to the state."),
        ("ar", "Argentina", ["Argentine Republic"], 120_000,
         "Lithium triangle country where provinces own the mineral resources."),
        ("au", "Australia", ["Commonwealth of Australia"], 200_000,
         "Largest producer of mined lithium (spodumene)."),
        ("cn", "China", ["People's Republic of China", "PRC"], 250_000,
         "Dominant refiner of lithium chemicals and maker of battery cells."),
        ("bo", "Bolivia", ["Plurinational State of Bolivia"], 60_000,
         "Holds large lithium resources in the Salar de Uyuni under state control."),
        ("cd", "Democratic Republic of the Congo", ["DR Congo", "DRC"], 80_000,
         "Supplies most of the world's cobalt and hosts the Manono lithium deposit."),
        ("zw", "Zimbabwe", [], 55_000, "Africa's largest lithium producer."),
        ("mx", "Mexico", ["United Mexican States"], "M", "Nationalised lithium in 2022."),
        ("id", "Indonesia", [], "M", "Largest nickel producer; bans raw ore exports."),
        ("us", "United States", ["USA", "United States of America"], 180_000,
         "Large battery market using tariffs and tax credits to build domestic supply."),
        ("ca", "Canada", [], "M", "Hard-rock lithium projects in Quebec and Ontario."),
        ("br", "Brazil", [], "M", "Growing spodumene producer in Minas Gerais."),
        ("ml", "Mali", [], "L", "West African country hosting the Goulamina lithium mine."),
        ("rs", "Serbia", [], "L", "Host of the Jadar lithium project."),
        ("kr", "South Korea", ["Republic of Korea"], "M", "Major battery cell producer."),
        ("jp", "Japan", [], "M", "Battery and materials producer."),
        ("ru", "Russia", ["Russian Federation"], "L", "Subject of extensive sanctions."),
        ("gb", "United Kingdom", ["UK"], "M", "Financial and mining centre."),
        ("ch", "Switzerland", [], "L", "Commodity trading hub."),
        ("fr", "France", [], "L", "EU member developing lithium projects."),
        ("de", "Germany", [], "M", "Largest European car market."),
        ("be", "Belgium", [], "L", "EU member."),
        ("nl", "Netherlands", [], "L", "EU member."),
        ("ae", "United Arab Emirates", ["UAE"], "L", "Gulf state and COP28 host."),
        ("az", "Azerbaijan", [], "L", "Host of COP29."),
        ("pk", "Pakistan", [], "L", "Hit by catastrophic floods in 2022."),
        ("dk", "Denmark", [], "L", "Nordic EU member."),
        ("ke", "Kenya", [], "L", "East African country hosting UN agencies in Nairobi."),
    ]
    for code, name, alt, stake, desc in countries:
        s.add(d, f"country:{code}", "Country", name, desc, stake=stake, alt=alt,
              ident=f"ISO3166-1:{code.upper()}", pub="origintrail")
    s.add(d, "country:cl-2", "Country", "Chile", "Country in South America.", stake=1_200,
          pub="community", ident="ISO3166-1:CL", alternateName="Chile (Republic)")  # conflict

    gov = [
        ("corfo", "Corporación de Fomento de la Producción", ["CORFO"], "cl",
         "Chilean development agency that owns the Salar de Atacama lithium concessions."),
        ("mofcom", "Ministry of Commerce of the People's Republic of China", ["MOFCOM"], "cn",
         "Chinese ministry that administers export controls."),
        ("ofac", "Office of Foreign Assets Control", ["OFAC"], "us",
         "US Treasury office that administers sanctions."),
        ("us-dod", "United States Department of Defense", ["Pentagon"], "us",
         "Publishes the Section 1260H list of Chinese military companies."),
        ("litiomx", "Litio para México", ["LitioMx"], "mx",
         "Mexican state lithium company created after nationalisation."),
        ("rosatom", "Rosatom", ["State Atomic Energy Corporation Rosatom"], "ru",
         "Russian state nuclear corporation."),
    ]
    for slug, name, alt, country, desc in gov:
        s.add(d, f"org:{slug}", "GovernmentOrganization", name, desc, stake="M", alt=alt,
              pub="origintrail", location=f"@country:{country}")
    s.add(d, "org:uranium-one", "Corporation", "Uranium One Group", "Rosatom subsidiary that "
          "signed a lithium plant agreement with YLB in Bolivia.", stake="L",
          parentOrganization="@org:rosatom", location="@country:ru")
    s.add(d, "org:cbc", "Organization", "CBC consortium", "Consortium led by CATL that signed "
          "a lithium extraction agreement with YLB.", stake="L", alt=["CATL BRUNP & CMOC"],
          member=["@org:catl", "@org:cmoc"])
    s.add(d, "org:atacama-peoples", "NGO", "Consejo de Pueblos Atacameños", "Council of "
          "indigenous Atacameño communities around the Salar de Atacama.", stake="L",
          alt=["Council of Atacameño Peoples"], location="@place:salar-de-atacama")

    events = [
        ("chile-lithium-strategy", "Chile National Lithium Strategy", "2023-04-20", "cl",
         ["codelco", "sqm", "albemarle", "corfo"], "nationalisation", 180_000,
         "President Boric announced that the state will hold a majority in new lithium "
         "projects in strategic salars, starting with the Salar de Atacama."),
        ("codelco-sqm", "Codelco–SQM lithium partnership agreement", "2024-05-31", "cl",
         ["codelco", "sqm"], "nationalisation", 150_000,
         "Codelco and SQM agreed a joint venture giving the state company majority control of "
         "Salar de Atacama operations from 2031."),
        ("corfo-sqm-royalty", "CORFO–SQM lease royalty increase", "2018-01-17", "cl",
         ["sqm", "corfo"], "royalty change", 65_000,
         "A settlement raised royalties on SQM's lithium sales from the Salar de Atacama to "
         "progressive rates of up to 40%."),
        ("chile-royalty-2025", "Chile lithium royalty reform proposal", "2025-03-10", "cl",
         ["sqm", "albemarle"], "royalty change", "M",
         "Proposal to harmonise lithium royalties across CORFO contracts."),
        ("mexico-nationalisation", "Mexico lithium nationalisation", "2022-04-18", "mx",
         ["litiomx", "ganfeng"], "nationalisation", 90_000,
         "Mexico reformed its mining law to reserve lithium exploration and exploitation to "
         "the state."),
        ("ganfeng-sonora", "Cancellation of Ganfeng Lithium's Sonora concessions", "2023-08-01",
         "mx", ["ganfeng"], "nationalisation", "M",
         "Mexico's mining authority cancelled concessions held by Ganfeng Lithium subsidiaries."),
        ("zimbabwe-ore-ban", "Zimbabwe raw lithium ore export ban", "2022-12-20", "zw",
         ["sinomine", "huayou", "prospect"], "export controls", 55_000,
         "Zimbabwe banned exports of unprocessed lithium ore to force local beneficiation."),
        ("zimbabwe-concentrate-ban", "Zimbabwe lithium concentrate export ban from 2027",
         "2025-06-05", "zw", ["sinomine", "huayou"], "export controls", "L",
         "Zimbabwe announced that concentrate exports will be banned from January 2027."),
        ("china-graphite-controls", "China graphite export controls", "2023-12-01", "cn",
         ["mofcom"], "export controls", 100_000,
         "China required export licences for several natural and synthetic graphite products."),
        ("china-lithium-tech-controls", "China export restrictions on lithium processing "
         "technology", "2025-07-15", "cn", ["mofcom", "ganfeng", "tianqi", "catl"],
         "export controls", 130_000,
         "China added lithium extraction, refining and LFP cathode technologies to its export "
         "restriction catalogue."),
        ("china-gallium-controls", "China gallium and germanium export controls", "2023-08-01",
         "cn", ["mofcom"], "export controls", "M",
         "China imposed export licensing on gallium and germanium."),
        ("drc-cobalt-suspension", "DR Congo cobalt export suspension", "2025-02-22", "cd",
         ["cmoc", "glencore"], "export controls", "M",
         "The DR Congo suspended cobalt exports for four months to support prices."),
        ("manono-dispute", "Manono lithium licence dispute", "2023-05-01", "cd",
         ["avz", "cominiere", "zijin"], "nationalisation", "M",
         "AVZ Minerals' Manono licence was revoked and part of the deposit awarded to a Zijin "
         "Mining joint venture."),
        ("indonesia-nickel-ban", "Indonesia nickel ore export ban", "2020-01-01", "id", [],
         "export controls", "L", "Indonesia banned nickel ore exports."),
        ("argentina-rigi", "Argentina RIGI investment regime", "2024-07-08", "ar",
         ["arcadium", "eramet", "ganfeng"], "royalty change", "M",
         "Argentina's large-investment regime offered tax and customs stability to lithium "
         "projects."),
        ("argentina-export-duty", "Argentina lithium export duty", "2022-01-01", "ar",
         ["arcadium", "ganfeng"], "royalty change", "L", "Export duty on lithium shipments."),
        ("us-301-batteries", "US Section 301 tariffs on Chinese lithium-ion batteries",
         "2024-05-14", "us", ["catl", "byd"], "sanctions", "M",
         "The US raised tariffs on Chinese electric vehicle lithium-ion batteries."),
        ("ira-feoc", "US foreign entity of concern battery rules", "2023-12-01", "us",
         ["catl", "ganfeng"], "sanctions", 75_000,
         "Clean vehicle credits excluded batteries with components or minerals from foreign "
         "entities of concern."),
        ("catl-1260h", "CATL added to US Section 1260H list", "2025-01-06", "us",
         ["catl", "us-dod"], "sanctions", 85_000,
         "The US Department of Defense listed CATL as a Chinese military company."),
        ("uranium-one-ylb", "YLB–Uranium One Group lithium plant agreement", "2023-12-13", "bo",
         ["ylb", "uranium-one"], "sanctions", "M",
         "YLB signed a direct lithium extraction plant agreement with a Rosatom subsidiary, "
         "raising sanctions exposure."),
        ("cbc-ylb", "YLB–CBC lithium extraction agreement", "2023-01-20", "bo", ["ylb", "cbc"],
         "nationalisation", "M",
         "Bolivia chose the CATL-led CBC consortium to build DLE plants in the Salar de Uyuni."),
        ("jadar-revoked", "Serbia revokes Jadar licences", "2022-01-20", "rs", ["rio-tinto"],
         "nationalisation", "M", "Serbia cancelled Rio Tinto's Jadar permits after protests."),
        ("atacama-protest", "Atacameño communities protest against Codelco–SQM deal",
         "2024-01-15", "cl", ["atacama-peoples", "codelco", "sqm"], "strike", "L",
         "Indigenous communities blocked roads to demand consultation on the Salar de Atacama "
         "agreement."),
        ("antofagasta-port-strike", "Antofagasta port workers' strike", "2024-04-09", "cl",
         ["sqm", "albemarle"], "strike", "L",
         "A port strike in Antofagasta delayed lithium carbonate shipments."),
        ("greenbushes-strike", "Greenbushes contractor strike", "2024-09-02", "au",
         ["talison"], "strike", "L", "Contract workers at the Greenbushes mine stopped work."),
        ("lithium-price-collapse", "Lithium price collapse of 2023", "2023-01-01", "cn",
         ["pilbara", "albemarle", "catl"], "market", "M",
         "Lithium carbonate prices fell by more than 80% from their 2022 peak."),
        ("kemerton-curtailment", "Kemerton plant curtailment", "2024-07-31", "au",
         ["albemarle"], "market", "L", "Albemarle idled hydroxide trains at Kemerton."),
        ("mali-mining-code", "Mali mining code revision", "2023-08-29", "ml", ["ganfeng"],
         "royalty change", "M",
         "Mali's new mining code raised the state's share and royalties in new mines."),
        ("eu-crma", "EU Critical Raw Materials Act", "2024-05-23", "be", [], "regulation", "M",
         "EU regulation setting benchmarks for domestic extraction and processing of lithium."),
    ]
    for slug, name, date, country, about, kind, stake, desc in events:
        s.add(d, f"event:{slug}", "Event", name, desc, stake=stake, pub="riskdesk",
              startDate=date, location=f"@country:{country}",
              about=[f"@org:{a}" for a in about] or None, keywords=kind)


def climate(s: Seed) -> None:
    d = "climate"
    orgs = [
        ("ipcc", "Intergovernmental Panel on Climate Change", ["IPCC"], "ch", "Geneva",
         "UN body assessing the science of climate change.", 150_000, "1988"),
        ("iea", "International Energy Agency", ["IEA"], "fr", "Paris",
         "Energy policy agency publishing the Global EV Outlook.", 140_000, "1974"),
        ("noaa", "National Oceanic and Atmospheric Administration", ["NOAA"], "us",
         "Washington", "US agency for weather, oceans and climate records.", 130_000, "1970"),
        ("c3s", "Copernicus Climate Change Service", ["C3S"], "gb", "Reading",
         "EU service that publishes the ERA5 reanalysis.", 90_000, "2014"),
        ("wmo", "World Meteorological Organization", ["WMO"], "ch", "Geneva",
         "UN agency for weather and climate.", 110_000, "1950"),
        ("unfccc", "United Nations Framework Convention on Climate Change", ["UNFCCC"], "de",
         "Bonn", "Secretariat of the climate convention and the COP process.", 100_000, "1992"),
        ("unep", "United Nations Environment Programme", ["UNEP"], "ke", "Nairobi",
         "Publishes the Emissions Gap Report.", 60_000, "1972"),
        ("cdp", "CDP", ["Carbon Disclosure Project"], "gb", "London",
         "Runs the global environmental disclosure system.", "M", "2000"),
        ("gcp", "Global Carbon Project", ["GCP"], "au", "Canberra",
         "Research network publishing the annual Global Carbon Budget.", "M", "2001"),
        ("climate-trace", "Climate TRACE", [], "us", "Washington",
         "Coalition estimating emissions from satellite and sensor data.", "M", "2020"),
        ("sbti", "Science Based Targets initiative", ["SBTi"], "gb", "London",
         "Validates corporate emissions reduction targets.", "M", "2015"),
        ("jrc", "Joint Research Centre", ["JRC"], "be", "Brussels",
         "European Commission science service maintaining EDGAR.", "M", "1957"),
        ("eea", "European Environment Agency", ["EEA"], "dk", "Copenhagen",
         "EU agency reporting verified ETS emissions.", "M", "1990"),
        ("cer", "Clean Energy Regulator", [], "au", "Canberra",
         "Australian regulator for NGER emissions reporting.", "L", "2012"),
    ]
    for slug, name, alt, country, city, desc, stake, founded in orgs:
        s.org(d, slug, name, alt, country.upper(), city, desc, stake=stake, founded=founded,
              type_="Organization", location=f"@country:{country}")
    s.add(d, "org:iea-2", "Organization", "International Energy Agency",
          "Paris-based energy agency.", stake=1_800, pub="community", ident=lei("org:iea"),
          foundingDate="1973")  # conflict: founding year
    s.add(d, "org:noaa-2", "GovernmentOrganization",
          "National Oceanic & Atmospheric Administration", "US weather and ocean agency.",
          stake=2_200, pub="community", ident=lei("org:noaa"), foundingDate="1807")  # conflict

    datasets = [
        ("global-carbon-budget-2024", "Global Carbon Budget 2024", "gcp", "2024-11-13",
         "Annual fossil and land-use CO2 emissions by country.", 120_000, None, "1750/2024"),
        ("edgar-2024", "EDGAR GHG emissions database 2024", "jrc", "2024-09-06",
         "Greenhouse gas emissions by country and sector.", 80_000, None, "1970/2023"),
        ("climate-trace-2024", "Climate TRACE emissions inventory", "climate-trace", "2024-11-15",
         "Facility-level emissions estimates including mines and refineries.", "M",
         ["place:greenbushes", "place:salar-de-atacama"], "2015/2023"),
        ("cdp-2024", "CDP climate change responses 2024", "cdp", "2024-12-01",
         "Corporate disclosures of scope 1, 2 and 3 emissions.", "M",
         ["org:albemarle", "org:sqm", "org:tesla"], "2024"),
        ("ev-outlook-2024", "IEA Global EV Outlook 2024 data", "iea", "2024-04-23",
         "Electric vehicle sales, battery demand and lithium demand projections.", 95_000,
         ["product:lithium-carbonate", "product:lithium-hydroxide"], "2010/2035"),
        ("noaa-global-temp", "NOAA global surface temperature anomalies", "noaa", "2025-01-10",
         "Monthly global land and ocean temperature anomalies.", 70_000, None, "1850/2024"),
        ("era5", "ERA5 reanalysis", "c3s", "2024-06-01",
         "Hourly global reanalysis of the atmosphere, land and oceans.", 85_000, None,
         "1940/2024"),
        ("eu-ets-2023", "EU ETS verified emissions 2023", "eea", "2024-04-02",
         "Verified emissions of installations under the EU Emissions Trading System.", "M",
         None, "2023"),
        ("nger-2023", "Australian NGER facility emissions 2022-23", "cer", "2024-02-28",
         "Scope 1 and 2 emissions reported by large Australian facilities, including lithium "
         "mines.", "M", ["place:greenbushes", "place:pilgangoora", "org:pilbara"], "2022/2023"),
        ("lithium-refining-intensity", "Lithium refining emissions intensity dataset", "iea",
         "2024-05-15", "CO2 per tonne of lithium hydroxide and carbonate by route (brine vs "
         "spodumene).", "M", ["product:lithium-hydroxide", "product:lithium-carbonate",
                              "product:spodumene"], "2023"),
        ("atacama-water-balance", "Salar de Atacama water balance", "c3s", "2023-10-01",
         "Brine pumping, freshwater use and evaporation estimates in the Salar de Atacama.",
         "L", ["place:salar-de-atacama", "org:sqm", "org:albemarle"], "2000/2022"),
        ("chile-ghg-inventory", "Chile national greenhouse gas inventory", "unfccc",
         "2024-04-15", "Chile's national inventory submitted to the UNFCCC.", "L",
         ["country:cl"], "1990/2022"),
    ]
    for slug, name, creator, date, desc, stake, about, period in datasets:
        s.add(d, f"dataset:{slug}", "Dataset", name, desc, stake=stake, pub="climatedata",
              creator=f"@org:{creator}", datePublished=date, temporalCoverage=period,
              about=[f"@{a}" for a in about] if about else None,
              license="https://creativecommons.org/licenses/by/4.0/")
    s.add(d, "dataset:global-carbon-budget-2024-copy", "Dataset", "Global Carbon Budget 2024",
          "Mirror of the carbon budget tables.", stake=1_300, pub="community",
          creator="@org:gcp", datePublished="2024-12-05")  # conflict: publication date

    reports = [
        ("ar6-syr", "IPCC AR6 Synthesis Report", "ipcc", "2023-03-20", 160_000,
         "Summary of the Sixth Assessment cycle."),
        ("emissions-gap-2024", "Emissions Gap Report 2024", "unep", "2024-10-24", "M",
         "Gap between pledged and needed emission cuts."),
        ("state-of-climate-2024", "State of the Global Climate 2024", "wmo", "2025-03-19", "M",
         "Confirms 2024 as the warmest year on record."),
    ]
    for slug, name, author, date, stake, desc in reports:
        s.add(d, f"report:{slug}", "Report", name, desc, stake=stake, pub="climatedata",
              author=f"@org:{author}", datePublished=date)

    events = [
        ("cop28", "COP28", ["2023 United Nations Climate Change Conference"], "2023-11-30", "ae",
         "UN climate summit in Dubai that agreed to transition away from fossil fuels.", 90_000),
        ("cop29", "COP29", ["2024 United Nations Climate Change Conference"], "2024-11-11", "az",
         "Baku summit that set a new climate finance goal.", "M"),
        ("cop30", "COP30", ["2025 United Nations Climate Change Conference"], "2025-11-10", "br",
         "Summit in Belém, Brazil.", "M"),
        ("canada-wildfires-2023", "2023 Canadian wildfires", [], "2023-03-01", "ca",
         "Record wildfire season burning over 18 million hectares.", "M"),
        ("pakistan-floods-2022", "2022 Pakistan floods", [], "2022-06-14", "pk",
         "Monsoon floods that submerged a third of the country.", "M"),
        ("rio-grande-floods-2024", "2024 Rio Grande do Sul floods", [], "2024-04-29", "br",
         "Floods in southern Brazil.", "L"),
        ("el-nino-2023", "2023–24 El Niño", [], "2023-06-08", "us",
         "El Niño event declared by NOAA.", "M"),
        ("chile-megadrought", "Chile megadrought", [], "2010-01-01", "cl",
         "Multi-year drought in central and northern Chile stressing water use in mining.", "M"),
        ("europe-heatwave-2022", "2022 European heatwave", [], "2022-06-15", "fr",
         "Record temperatures across western Europe.", "L"),
        ("la-wildfires-2025", "January 2025 Southern California wildfires", [], "2025-01-07",
         "us", "Wildfires around Los Angeles.", "L"),
    ]
    for slug, name, alt, date, country, desc, stake in events:
        s.add(d, f"event:{slug}", "Event", name, desc, stake=stake, alt=alt, pub="climatedata",
              startDate=date, location=f"@country:{country}", keywords="climate event")


def procurement(s: Seed) -> None:
    d = "procurement"
    buyers = [
        ("dla", "Defense Logistics Agency", ["DLA"], "us", "Fort Belvoir",
         "US defence agency that manages the National Defense Stockpile.", 120_000),
        ("gsa", "U.S. General Services Administration", ["GSA"], "us", "Washington",
         "Central procurement agency of the US federal government.", 100_000),
        ("ccs", "Crown Commercial Service", ["CCS"], "gb", "Liverpool",
         "UK public procurement agency running commercial frameworks.", 80_000),
        ("nhs-supply-chain", "NHS Supply Chain", [], "gb", "Alfreton",
         "Procures medical devices and consumables for the NHS in England.", 70_000),
        ("tfl", "Transport for London", ["TfL"], "gb", "London",
         "London's transport authority buying zero-emission buses.", 90_000),
        ("dg-digit", "Directorate-General for Informatics", ["DG DIGIT"], "be", "Brussels",
         "European Commission department procuring IT and cloud services.", "M"),
        ("au-defence", "Australian Department of Defence", [], "au", "Canberra",
         "Buys batteries and energy storage for bases.", "M"),
        ("chilecompra", "Dirección ChileCompra", ["ChileCompra"], "cl", "Santiago",
         "Chile's public procurement directorate.", "M"),
        ("amsterdam", "City of Amsterdam", ["Gemeente Amsterdam"], "nl", "Amsterdam",
         "Municipality procuring charging infrastructure.", "L"),
    ]
    for slug, name, alt, country, city, desc, stake in buyers:
        s.org(d, slug, name, alt, country.upper(), city, desc, stake=stake,
              type_="GovernmentOrganization", location=f"@country:{country}")
    vendors = [
        ("siemens-energy", "Siemens Energy AG", ["Siemens Energy"], "DE", "Munich",
         "Grid and power generation equipment maker.", 110_000, 96000),
        ("abb", "ABB Ltd", ["ABB"], "CH", "Zurich", "Electrification and automation group.",
         90_000, 105000),
        ("fluence", "Fluence Energy, Inc.", ["Fluence"], "US", "Arlington",
         "Battery energy storage integrator.", "M", 1500),
        ("hitachi-energy", "Hitachi Energy Ltd", ["Hitachi Energy"], "CH", "Zurich",
         "Grid technology supplier.", "M", 45000),
        ("schneider", "Schneider Electric SE", ["Schneider Electric"], "FR", "Rueil-Malmaison",
         "Energy management and automation group.", "M", 150000),
        ("wartsila", "Wärtsilä Corporation", ["Wärtsilä"], "FI", "Helsinki",
         "Energy storage and marine technology supplier.", "M", 18000),
        ("accenture", "Accenture plc", ["Accenture"], "IE", "Dublin",
         "IT services and consulting firm.", 75_000, 770000),
        ("bechtel", "Bechtel Corporation", ["Bechtel"], "US", "Reston",
         "Engineering and construction contractor.", "M", 50000),
        ("wrightbus", "Wrightbus", ["Wright Bus"], "GB", "Ballymena",
         "Northern Irish bus manufacturer building battery-electric buses.", "M", 2000),
        ("alexander-dennis", "Alexander Dennis Limited", ["Alexander Dennis"], "GB", "Larbert",
         "British bus manufacturer.", "M", 2500),
        ("northvolt", "Northvolt AB", ["Northvolt"], "SE", "Stockholm",
         "Swedish battery maker that filed for bankruptcy in 2025.", "L", 4500),
        ("medtronic", "Medtronic plc", ["Medtronic"], "IE", "Dublin",
         "Medical device manufacturer.", "M", 95000),
        ("bd", "Becton, Dickinson and Company", ["BD"], "US", "Franklin Lakes",
         "Medical technology company making infusion pumps.", "M", 70000),
    ]
    for slug, name, alt, country, city, desc, stake, staff in vendors:
        s.org(d, slug, name, alt, country, city, desc, stake=stake, employees=staff)
    s.add(d, "org:siemens-energy-2", "Corporation", "Siemens Energy", "Energy technology "
          "company.", stake=1_700, pub="community", ident=lei("org:siemens-energy"),
          numberOfEmployees=92000)  # conflict: near-duplicate vendor

    tenders = [
        ("dla-lithium-stockpile", "DLA lithium stockpile solicitation", "dla", "2024-02-15",
         "lithium-carbonate", "Solicitation to acquire battery-grade lithium carbonate for the "
         "National Defense Stockpile.", 60_000),
        ("tfl-zero-emission-bus", "TfL zero-emission bus framework 2024", "tfl", "2024-03-01",
         None, "Framework for battery-electric double-deck buses.", "M"),
        ("nhs-infusion-pumps", "NHS Supply Chain infusion devices framework", "nhs-supply-chain",
         "2023-09-12", None, "National framework for infusion pumps and consumables.", "M"),
        ("gsa-battery-storage", "GSA battery energy storage for federal buildings", "gsa",
         "2024-06-20", "lfp-cell", "Tender for LFP battery storage at federal sites.", "M"),
        ("dg-digit-cloud", "DG DIGIT Cloud III services tender", "dg-digit", "2023-05-10", None,
         "Framework for public cloud services for EU institutions.", "M"),
        ("au-defence-batteries", "Defence deployable battery systems tender", "au-defence",
         "2024-08-05", "lfp-cell", "Deployable lithium battery systems for bases.", "L"),
        ("chilecompra-storage", "ChileCompra public building battery storage tender",
         "chilecompra", "2024-10-01", "lfp-cell", "Batteries for public buildings.", "L"),
        ("amsterdam-charging", "Amsterdam e-bus charging infrastructure tender", "amsterdam",
         "2023-11-20", None, "Depot chargers for electric buses.", "L"),
    ]
    for slug, name, buyer, date, item, desc, stake in tenders:
        s.add(d, f"tender:{slug}", "CreativeWork", name, desc, stake=stake, pub="procwatch",
              additionalType="Tender", publisher=f"@org:{buyer}", dateCreated=date,
              about=f"@product:{item}" if item else None)

    contracts = [
        ("tfl-wrightbus", "TfL contract with Wrightbus for electric buses", "wrightbus", "tfl",
         "tfl-zero-emission-bus", "2024-07-01", 98_000_000, "GBP", 55_000),
        ("tfl-alexander-dennis", "TfL contract with Alexander Dennis for electric buses",
         "alexander-dennis", "tfl", "tfl-zero-emission-bus", "2024-07-01", 74_000_000, "GBP",
         "M"),
        ("nhs-bd", "NHS Supply Chain contract with BD for infusion pumps", "bd",
         "nhs-supply-chain", "nhs-infusion-pumps", "2024-01-15", 42_000_000, "GBP", "M"),
        ("gsa-fluence", "GSA contract with Fluence for battery storage", "fluence", "gsa",
         "gsa-battery-storage", "2024-11-04", 31_500_000, "USD", "M"),
        ("dg-digit-accenture", "DG DIGIT contract with Accenture for cloud brokerage",
         "accenture", "dg-digit", "dg-digit-cloud", "2023-12-01", 120_000_000, "EUR", "M"),
        ("dla-albemarle", "DLA contract with Albemarle for lithium carbonate", "albemarle",
         "dla", "dla-lithium-stockpile", "2024-09-30", 90_000_000, "USD", 65_000),
        ("amsterdam-abb", "Amsterdam contract with ABB for depot chargers", "abb", "amsterdam",
         "amsterdam-charging", "2024-03-15", 12_500_000, "EUR", "L"),
        ("chilecompra-wartsila", "ChileCompra contract with Wärtsilä for storage", "wartsila",
         "chilecompra", "chilecompra-storage", "2025-01-20", 8_200_000, "USD", "L"),
    ]
    for slug, name, seller, buyer, tender, date, price, cur, stake in contracts:
        s.add(d, f"contract:{slug}", "Order", name, f"Award under the {tender} tender.",
              stake=stake, pub="procwatch", seller=f"@org:{seller}", customer=f"@org:{buyer}",
              subjectOf=f"@tender:{tender}", orderDate=date,
              totalPaymentDue={"@type": "PriceSpecification", "price": price,
                               "priceCurrency": cur})
    s.add(d, "contract:tfl-wrightbus-2", "Order", "TfL contract with Wrightbus for electric "
          "buses", "Reported award value.", stake=1_100, pub="community",
          ident="urn:kminer:contract:tfl-wrightbus", seller="@org:wrightbus",
          customer="@org:tfl", orderDate="2024-07-01",
          totalPaymentDue={"@type": "PriceSpecification", "price": 120_000_000,
                           "priceCurrency": "GBP"})  # conflict: contract value


def clinical_trials(s: Seed) -> None:
    d = "clinical_trials"
    sponsors = [
        ("novo-nordisk", "Novo Nordisk A/S", ["Novo Nordisk"], "DK", "Bagsværd", "1923",
         "Danish maker of semaglutide.", 200_000),
        ("eli-lilly", "Eli Lilly and Company", ["Eli Lilly", "Lilly"], "US", "Indianapolis",
         "1876", "US drug maker of tirzepatide and donanemab.", 210_000),
        ("eisai", "Eisai Co., Ltd.", ["Eisai"], "JP", "Tokyo", "1941",
         "Japanese drug maker that co-developed lecanemab.", 80_000),
        ("biogen", "Biogen Inc.", ["Biogen"], "US", "Cambridge", "1978",
         "Neuroscience company partnering with Eisai.", 75_000),
        ("merck", "Merck & Co., Inc.", ["Merck", "MSD"], "US", "Rahway", "1891",
         "Maker of pembrolizumab and sotatercept.", 190_000),
        ("astrazeneca", "AstraZeneca PLC", ["AstraZeneca"], "GB", "Cambridge", "1999",
         "Maker of osimertinib, co-developer of trastuzumab deruxtecan.", 170_000),
        ("daiichi", "Daiichi Sankyo Company, Limited", ["Daiichi Sankyo"], "JP", "Tokyo", "2005",
         "Japanese developer of trastuzumab deruxtecan.", "M"),
        ("moderna", "Moderna, Inc.", ["Moderna"], "US", "Cambridge", "2010",
         "mRNA company developing individualised cancer vaccines.", "M"),
        ("pfizer", "Pfizer Inc.", ["Pfizer"], "US", "New York", "1849", "US drug maker.", "H"),
    ]
    for slug, name, alt, country, city, founded, desc, stake in sponsors:
        s.org(d, slug, name, alt, country, city, desc, stake=stake, founded=founded)
    s.add(d, "org:nia", "GovernmentOrganization", "National Institute on Aging", "US NIH "
          "institute funding Alzheimer's research.", stake="M", alt=["NIA"],
          location="@country:us")
    s.add(d, "org:eli-lilly-2", "Corporation", "Eli Lilly & Co.", "Pharmaceutical company.",
          stake=1_400, pub="community", ident=lei("org:eli-lilly"),
          foundingDate="1881")  # conflict: founding year

    drugs = [
        ("semaglutide", "Semaglutide", ["Wegovy", "Ozempic"], "novo-nordisk",
         "GLP-1 receptor agonist.", 120_000),
        ("tirzepatide", "Tirzepatide", ["Mounjaro", "Zepbound"], "eli-lilly",
         "GIP and GLP-1 receptor agonist.", 110_000),
        ("lecanemab", "Lecanemab", ["Leqembi"], "eisai", "Anti-amyloid antibody.", "M"),
        ("donanemab", "Donanemab", ["Kisunla"], "eli-lilly", "Anti-amyloid antibody.", "M"),
        ("pembrolizumab", "Pembrolizumab", ["Keytruda"], "merck", "PD-1 inhibitor.", 100_000),
        ("osimertinib", "Osimertinib", ["Tagrisso"], "astrazeneca", "EGFR inhibitor.", "M"),
        ("t-dxd", "Trastuzumab deruxtecan", ["Enhertu", "T-DXd"], "daiichi",
         "HER2-directed antibody-drug conjugate.", "M"),
        ("mrna-4157", "Intismeran autogene", ["mRNA-4157", "V940"], "moderna",
         "Individualised neoantigen therapy.", "M"),
        ("sotatercept", "Sotatercept", ["Winrevair"], "merck", "Activin signalling inhibitor.",
         "M"),
        ("lithium-carbonate-drug", "Lithium carbonate", ["lithium carbonate tablets"], None,
         "Mood stabiliser used for bipolar disorder, studied for neuroprotection.", "L"),
    ]
    for slug, name, alt, maker, desc, stake in drugs:
        s.add(d, f"drug:{slug}", "Drug", name, desc, stake=stake, alt=alt, pub="trialmirror",
              manufacturer=f"@org:{maker}" if maker else None)

    conditions = [
        ("t2d", "Type 2 diabetes", ["type 2 diabetes mellitus"]),
        ("obesity", "Obesity", []),
        ("alzheimers", "Alzheimer's disease", ["Alzheimer disease"]),
        ("nsclc", "Non-small cell lung cancer", ["NSCLC"]),
        ("her2-breast", "HER2-positive breast cancer", []),
        ("melanoma", "Melanoma", []),
        ("bipolar", "Bipolar disorder", []),
        ("pah", "Pulmonary arterial hypertension", ["PAH"]),
        ("cvd", "Cardiovascular disease", []),
    ]
    for slug, name, alt in conditions:
        s.add(d, f"condition:{slug}", "MedicalCondition", name, f"Medical condition: {name}.",
              stake="M", alt=alt, pub="trialmirror")

    studies = [
        ("select", "SELECT", "Semaglutide Effects on Cardiovascular Outcomes in People with "
         "Overweight or Obesity", ["novo-nordisk"], "semaglutide", ["obesity", "cvd"],
         "Completed", 17604, 90_000),
        ("surmount-1", "SURMOUNT-1", "Tirzepatide Once Weekly for the Treatment of Obesity",
         ["eli-lilly"], "tirzepatide", ["obesity"], "Completed", 2539, 85_000),
        ("surpass-cvot", "SURPASS-CVOT", "Tirzepatide versus dulaglutide cardiovascular "
         "outcomes", ["eli-lilly"], "tirzepatide", ["t2d", "cvd"], "Completed", 13299, "M"),
        ("clarity-ad", "Clarity AD", "Lecanemab in Early Alzheimer's Disease",
         ["eisai", "biogen"], "lecanemab", ["alzheimers"], "Completed", 1795, 70_000),
        ("trailblazer-alz-2", "TRAILBLAZER-ALZ 2", "Donanemab in Early Symptomatic Alzheimer's "
         "Disease", ["eli-lilly"], "donanemab", ["alzheimers"], "Completed", 1736, "M"),
        ("keynote-189", "KEYNOTE-189", "Pembrolizumab plus chemotherapy in metastatic "
         "non-squamous NSCLC", ["merck"], "pembrolizumab", ["nsclc"], "Completed", 616, "M"),
        ("flaura", "FLAURA", "Osimertinib in untreated EGFR-mutated advanced NSCLC",
         ["astrazeneca"], "osimertinib", ["nsclc"], "Completed", 556, "M"),
        ("destiny-breast03", "DESTINY-Breast03", "Trastuzumab deruxtecan versus trastuzumab "
         "emtansine in HER2-positive breast cancer", ["daiichi", "astrazeneca"], "t-dxd",
         ["her2-breast"], "Completed", 524, "M"),
        ("keynote-942", "KEYNOTE-942", "Intismeran autogene with pembrolizumab in resected "
         "melanoma", ["moderna", "merck"], "mrna-4157", ["melanoma"], "ActiveNotRecruiting",
         157, "M"),
        ("stellar", "STELLAR", "Sotatercept for pulmonary arterial hypertension", ["merck"],
         "sotatercept", ["pah"], "Completed", 323, "M"),
        ("lithium-mci", "LATTICE lithium study", "Low-dose lithium carbonate in mild cognitive "
         "impairment", ["nia"], "lithium-carbonate-drug", ["alzheimers"], "Recruiting", 80,
         "L"),
        ("lithium-bipolar", "LiMAB maintenance study", "Lithium carbonate maintenance in "
         "bipolar disorder", ["nia"], "lithium-carbonate-drug", ["bipolar"], "Completed", 240,
         "L"),
    ]
    for slug, name, full, sponsors_, drug, conds, status, n, stake in studies:
        s.add(d, f"trial:{slug}", "MedicalStudy", name, full + ".", stake=stake, alt=[full],
              pub="trialmirror", sponsor=[f"@org:{x}" for x in sponsors_],
              studySubject=f"@drug:{drug}",
              healthCondition=[f"@condition:{c}" for c in conds], status=status,
              additionalProperty={"@type": "PropertyValue", "name": "enrollment", "value": n})
    s.add(d, "trial:clarity-ad-2", "MedicalStudy", "Clarity AD", "Phase 3 lecanemab trial.",
          stake=1_000, pub="community", ident="urn:kminer:trial:clarity-ad",
          sponsor="@org:eisai", studySubject="@drug:lecanemab", status="Completed",
          additionalProperty={"@type": "PropertyValue", "name": "enrollment",
                              "value": 1906})  # conflict: enrollment

# fmt: on


def build() -> Seed:
    seed = Seed()
    for fill in (supply_chain, general_risk, climate, procurement, clinical_trials):
        fill(seed)
    seed.check_refs()
    return seed


def write(seed_dir: Path = SEED_DIR) -> dict[str, int]:
    seed_dir.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for domain, items in build().items.items():
        text = json.dumps(items, indent=1, ensure_ascii=False) + "\n"
        (seed_dir / f"{domain}.json").write_text(text, encoding="utf-8")
        counts[domain] = len(items)
    return counts


if __name__ == "__main__":
    for name, count in write().items():
        print(f"{name}: {count}")
