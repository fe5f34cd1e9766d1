"""Register the run's search attributes with Temporal, once, where we may.

The embedded dev server registers them at start (`--search-attribute`); a
shared cluster gets them through the operator API if this principal is
allowed to add them. Where neither works, runs are started unindexed and
listing falls back to scanning, so a missing permission never stops mining.
"""

from __future__ import annotations

import logging
import time
import weakref

from temporalio.api.enums.v1 import IndexedValueType
from temporalio.api.operatorservice.v1 import (
    AddSearchAttributesRequest,
    ListSearchAttributesRequest,
)
from temporalio.client import Client
from temporalio.service import RPCError

from workflows.search_attributes import ALL_KEYS

log = logging.getLogger(__name__)

CLI_TYPE = {
    IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD: "Keyword",
    IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST: "KeywordList",
    IndexedValueType.INDEXED_VALUE_TYPE_INT: "Int",
}


def dev_server_flags() -> list[str]:
    """`--search-attribute Name=Type` for each of ours, for `temporal server start-dev`."""
    flags: list[str] = []
    for key in ALL_KEYS:
        flags += ["--search-attribute", f"{key.name}={CLI_TYPE[key.indexed_value_type.value]}"]
    return flags


async def ensure_search_attributes(client: Client) -> bool:
    """True when every one of our search attributes is registered (adding what is missing)."""
    namespace = client.namespace
    try:
        listed = await client.operator_service.list_search_attributes(
            ListSearchAttributesRequest(namespace=namespace)
        )
        present = {**listed.custom_attributes, **listed.system_attributes}
        missing = {
            key.name: key.indexed_value_type.value for key in ALL_KEYS if key.name not in present
        }
        if missing:
            await client.operator_service.add_search_attributes(
                AddSearchAttributesRequest(namespace=namespace, search_attributes=missing)
            )
    except RPCError as exc:
        log.warning("runs will not be indexed in Temporal visibility: %s", exc.message)
        return False
    return True


RETRY_AFTER_SECONDS = 60.0
_known: weakref.WeakKeyDictionary[Client, tuple[bool, float]] = weakref.WeakKeyDictionary()


async def indexing(client: Client) -> bool:
    """Whether runs started through `client` can carry our search attributes (cached)."""
    known = _known.get(client)
    if known is not None and (known[0] or time.monotonic() - known[1] < RETRY_AFTER_SECONDS):
        return known[0]
    ready = await ensure_search_attributes(client)
    _known[client] = (ready, time.monotonic())
    return ready
