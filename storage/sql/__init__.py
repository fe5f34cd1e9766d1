"""The SQL database (SQLite by default, any SQLAlchemy URL): tables, engine, migrations.

`tables` defines the schema, `db.make_engine` opens it and `migrate` brings it to head
with the Alembic revisions in `migrations/`; the repositories on top are the memory
notes (`memory_repo` with a head row per note and its run sections as rows appended by
`section_append`, `note_view` and `note_rows` for what a run reads of them,
`memory_backend` for the agents), the audit trail (`audit_log`) and the research cache
(`research_cache`).
"""
