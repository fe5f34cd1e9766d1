"""Everything the miner keeps, organised by backend.

- `storage.dkg`: the Knowledge Graph (the embedded pyoxigraph store, a remote ot-node, their
  shared SPARQL guard and label index, the demo seed and its builder);
- `storage.sql`: the SQL database (tables, engine, Alembic migrations, and the repositories
  of memory notes, the audit trail and the research cache);
- `storage.corpus`: the local document search (the SQLite FTS index, passages, the readers
  per document format, and the shipped demo documents).

The three backends do not import one another (pyproject.toml `[tool.importlinter]`).
"""
