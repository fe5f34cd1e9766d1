"""Curated demo assets of the climate domain.

Climate organisations, datasets, reports and events. Hand-curated demo data: plausible,
not authoritative. Deliberate near-duplicates and conflicting facts are marked
`# conflict`.
"""

from __future__ import annotations

from storage.dkg.seed_build.seed import Seed, lei

# Hand-aligned data tables read better than one-argument-per-line formatting.
# fmt: off


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

# fmt: on
