"""Alembic migrations of the SQL schema: `env.py` and `versions/`, run by `storage.sql.migrate`."""
