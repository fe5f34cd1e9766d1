"""The Alembic revisions, oldest first (0001_first_release, 0002_audit_trail, ...)."""
