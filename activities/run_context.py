"""Whom the current activity acts for (set from a header by the worker's interceptor)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

PRINCIPAL_HEADER = "km-principal"
_principal: ContextVar[str | None] = ContextVar("km_principal", default=None)


def current_principal() -> str | None:
    return _principal.get()


@contextmanager
def acting_for(principal: str | None) -> Iterator[None]:
    token = _principal.set(principal)
    try:
        yield
    finally:
        _principal.reset(token)
