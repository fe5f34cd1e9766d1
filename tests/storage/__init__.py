"""Storage (storage/): the embedded and remote DKG, its backup, the local corpus and its
documents, SQL memory, migrations and the audit trail, on real pyoxigraph, SQLite and
(when it answers) Postgres."""
