"""Listing runs through Temporal visibility: the filter query and the page cursor."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re

from contracts.run import TAG_PATTERN, Phase
from workflows.search_attributes import KM_PHASE, KM_PRINCIPAL, KM_TAGS

# A run that continued as new lives on in the chain's latest run, listed under the same id.
BASE_QUERY = "WorkflowType = 'MiningWorkflow' AND ExecutionStatus != 'ContinuedAsNew'"
# Principals are token subjects; only these go into a query string verbatim.
SAFE_VALUE = re.compile(r"^[A-Za-z0-9_.@:+\-]{1,200}$")
CURSOR = re.compile(r"^[A-Za-z0-9_\-]+$")


class BadCursor(ValueError):
    """A cursor this API did not hand out."""


def visibility_query(
    *, tag: str | None = None, phase: Phase | None = None, principal: str | None = None
) -> str:
    """The list filter; every value is checked before it is quoted into the query."""
    clauses = [BASE_QUERY]
    if tag is not None:
        if not TAG_PATTERN.fullmatch(tag):
            raise ValueError(f"invalid domain tag {tag!r}")
        clauses.append(f"{KM_TAGS.name} = '{tag}'")
    if phase is not None:
        clauses.append(f"{KM_PHASE.name} = '{Phase(phase).value}'")
    if principal is not None:
        if not SAFE_VALUE.fullmatch(principal):
            raise ValueError(f"principal {principal!r} cannot be used in a visibility query")
        clauses.append(f"{KM_PRINCIPAL.name} = '{principal}'")
    return " AND ".join(clauses)


SIGNATURE_BYTES = 16


def _signature(token: bytes, key: bytes) -> bytes:
    return hmac.new(key, token, hashlib.sha256).digest()[:SIGNATURE_BYTES]


def encode_cursor(token: bytes | None, key: bytes) -> str | None:
    """Temporal's page token, signed: only tokens this API handed out go back to Temporal."""
    if not token:
        return None
    return base64.urlsafe_b64encode(_signature(token, key) + token).decode().rstrip("=")


def decode_cursor(cursor: str | None, key: bytes) -> bytes | None:
    if not cursor:
        return None
    refused = BadCursor("cursor is not one this API returned")
    # The lenient decoder drops stray characters; a cursor must be pure base64url.
    if not CURSOR.fullmatch(cursor):
        raise refused
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError) as exc:
        raise refused from exc
    signature, token = raw[:SIGNATURE_BYTES], raw[SIGNATURE_BYTES:]
    if not token or not hmac.compare_digest(signature, _signature(token, key)):
        raise refused
    return token
