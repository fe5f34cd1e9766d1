"""Curated demo assets of the clinical_trials domain.

Sponsors, drugs, conditions and the trials that study them. Hand-curated demo data:
plausible, not authoritative. Deliberate near-duplicates and conflicting facts are
marked `# conflict`.
"""

from __future__ import annotations

from storage.dkg.seed_build.seed import Seed, lei

# Hand-aligned data tables read better than one-argument-per-line formatting.
# fmt: off


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
