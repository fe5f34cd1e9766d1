"""The SQL database (SQLite by default, any SQLAlchemy URL): tables, engine, migrations.

`tables` defines the schema, `db.make_engine` opens it and `migrate` brings it to head
with the Alembic revisions in `migrations/`; the repositories on top are the memory
notes (`memory_repo`, `memory_backend`, `note_view`), the audit trail (`audit_log`) and
the research cache (`research_cache`).
"""
