"""The local Postgres the tests use when it answers (CI has one on 127.0.0.1:5432)."""

from __future__ import annotations

import socket

POSTGRES_ADDRESS = ("127.0.0.1", 5432)
POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_answers() -> bool:
    """Whether Postgres accepts connections here and the psycopg driver is installed."""
    try:
        with socket.create_connection(POSTGRES_ADDRESS, timeout=0.5):
            pass
    except OSError:
        return False
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return False
    return True
