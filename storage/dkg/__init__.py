"""The Decentralized Knowledge Graph: an embedded pyoxigraph store or a remote ot-node.

`factory.open_dkg` picks one; both answer the same interface (`interface` holds its
errors and result shapes), refuse anything but read queries (`sparql_guard`) and rank
names with the same in-memory index (`label_index`). `seed/` is the demo data the
embedded store starts with, rebuilt by `python -m storage.dkg.seed_build`.
"""
