"""Curated demo assets of the general_risk domain.

Countries, regulators and the events (bans, tariffs, royalties, export controls) that
move the lithium trade. Hand-curated demo data: plausible, not authoritative.
Deliberate near-duplicates and conflicting facts are marked `# conflict`.
"""

from __future__ import annotations

from storage.dkg.seed_build.seed import Seed

# Hand-aligned data tables read better than one-argument-per-line formatting.
# fmt: off


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

# fmt: on
