"""The run's indexed fields in Temporal visibility: list and filter runs without opening them.

The starter sets thread, tags and principal; the workflow keeps phase and the
published count current. A run started without them (by a Temporal CLI user,
or against a cluster where they are not registered) is simply not indexed:
the workflow upserts only when the start carried them.
"""

from __future__ import annotations

from temporalio.common import (
    SearchAttributeKey,
    SearchAttributePair,
    TypedSearchAttributes,
)

from contracts.run import Phase

KM_THREAD = SearchAttributeKey.for_keyword("KmThread")
KM_TAGS = SearchAttributeKey.for_keyword_list("KmTags")
KM_PRINCIPAL = SearchAttributeKey.for_keyword("KmPrincipal")
KM_PHASE = SearchAttributeKey.for_keyword("KmPhase")
KM_PUBLISHED = SearchAttributeKey.for_int("KmPublished")

ALL_KEYS: tuple[SearchAttributeKey, ...] = (
    KM_THREAD,
    KM_TAGS,
    KM_PRINCIPAL,
    KM_PHASE,
    KM_PUBLISHED,
)


def at_start(thread: str, tags: list[str], principal: str) -> TypedSearchAttributes:
    return TypedSearchAttributes(
        [
            SearchAttributePair(KM_THREAD, thread),
            SearchAttributePair(KM_TAGS, list(tags)),
            SearchAttributePair(KM_PRINCIPAL, principal),
            SearchAttributePair(KM_PHASE, Phase.PLANNING.value),
            SearchAttributePair(KM_PUBLISHED, 0),
        ]
    )
