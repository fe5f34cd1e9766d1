"""Curated demo assets of the supply_chain domain.

Lithium producers and their customers (corporations), products, places (mines, brine
fields, refineries) and the supply deals between them. Hand-curated demo data:
plausible, not authoritative. Deliberate near-duplicates and conflicting facts are
marked `# conflict`.
"""

from __future__ import annotations

from storage.dkg.seed_build.seed import Seed, lei

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

# fmt: on
