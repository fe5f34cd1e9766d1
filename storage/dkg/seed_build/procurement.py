"""Curated demo assets of the procurement domain.

Public buyers, suppliers, tenders and the contracts awarded. Hand-curated demo data:
plausible, not authoritative. Deliberate near-duplicates and conflicting facts are
marked `# conflict`.
"""

from __future__ import annotations

from storage.dkg.seed_build.seed import Seed, lei

# Hand-aligned data tables read better than one-argument-per-line formatting.
# fmt: off


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

# fmt: on
