"""Shapes of a recorded history that depend on timing, not on the workflow's code."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from temporalio.api.enums.v1 import EventType

from tests.support.runs import local_activity_type

T = EventType
# Events a workflow task's commands write.
COMMAND_EVENTS = frozenset(
    {
        T.EVENT_TYPE_MARKER_RECORDED,
        T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
        T.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
        T.EVENT_TYPE_TIMER_STARTED,
        T.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
    }
)
FORCED_TASK = (T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, T.EVENT_TYPE_WORKFLOW_TASK_STARTED)


def deferred_local_results(events: Sequence[Any]) -> list[tuple[int, list[str]]]:
    """Workflow tasks that wrote only local-activity markers and were followed at once by
    another task (no new event between: a heartbeat while local activities ran, or a
    query's answer) whose commands carry on from those results.

    Live, the workflow learned those results only in the later task; a replay, resolving
    a local activity from its marker, learns them in the earlier one. Each is (the
    completed event's id, the activity types of its markers)."""
    found = []
    for i, event in enumerate(events):
        if event.event_type != T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
            continue
        j = i + 1
        while j < len(events) and events[j].event_type in COMMAND_EVENTS:
            j += 1
        written = events[i + 1 : j]
        markers = [local_activity_type(e) for e in written]
        following = [e.event_type for e in events[j : j + 4]]
        if (
            written
            and all(markers)
            and following[:3] == [*FORCED_TASK, T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED]
            and following[3:] != []
            and following[3] in COMMAND_EVENTS
        ):
            found.append((event.event_id, [str(m) for m in markers]))
    return found


def patch_markers(events: Sequence[Any]) -> list[tuple[int, str]]:
    """(event id, patch id) of each `workflow.patched` marker."""
    out = []
    for event in events:
        attrs = event.marker_recorded_event_attributes
        if event.event_type == T.EVENT_TYPE_MARKER_RECORDED and attrs.marker_name == "core_patch":
            patch = json.loads(attrs.details["patch-data"].payloads[0].data)["id"]
            out.append((event.event_id, patch))
    return out
