"""Build the demo seed Knowledge Assets: `python -m storage.dkg.seed_build` rewrites seed/.

Entities are curated by hand, one module per domain (supply_chain, general_risk, climate,
procurement, clinical_trials); `seed` holds the `Seed` they add to and `build` assembles
and writes them. Everything derived (LEI-like identifiers, stakes inside a tier,
publish times, update counts) comes from a hash of the asset id, so a rebuild is
byte-identical and a fresh store always mints the same UALs. The data is demo data:
plausible, not authoritative.
Deliberate near-duplicates and conflicting facts are marked `# conflict`.
"""
