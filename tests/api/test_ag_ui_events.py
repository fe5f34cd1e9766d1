"""The pure parts of the event stream (api/ag_ui_events.py): the STATE_DELTA JSON Patch
and the event id that is a cursor."""

from __future__ import annotations

import json
from typing import Any

import jsonpatch
import pytest

from api.ag_ui_events import Cursor, json_patch
from tests.support.ag_ui_stream import apply_patch


@pytest.mark.parametrize(
    "old,new",
    [
        (
            {"a~b/c": 1, "x": [1, 2, 3], "t": True, "n": 1, "gone": {"k": 1}},
            {"a~b/c": 2, "x": [1], "t": 1, "n": 1.0, "new": {"k": None}},
        ),
        ({"l": [{"id": 1, "v": "a"}]}, {"l": [{"id": 1, "v": "b"}, {"id": 2}, [3]]}),
        ({"x": None}, {"x": {"deep": [None, False, 0, ""]}}),
        ([1, 2], {"now": "an object"}),
        ({"same": [1, {"a": 2}]}, {"same": [1, {"a": 2}]}),
        # Where jsonpatch.make_patch would answer with `move`: todos rewritten in another
        # order, an id leaving one list for another.
        (
            {"todos": [{"content": "a", "status": "completed"}, {"content": "b"}]},
            {"todos": [{"content": "b"}, {"content": "a", "status": "completed"}]},
        ),
        ({"pending": ["c1", "c2"], "rejected": []}, {"pending": ["c2"], "rejected": ["c1"]}),
    ],
)
def test_json_patch_turns_one_value_into_the_other(old: Any, new: Any) -> None:
    ops = json_patch(old, new)
    # The ops the chat UI's patch.js applies, strictly (a path that does not resolve fails).
    assert {op["op"] for op in ops} <= {"add", "remove", "replace"}, ops
    assert json.dumps(apply_patch(old, ops)) == json.dumps(new)
    assert (ops == []) == (json.dumps(old) == json.dumps(new))
    # The same patch through jsonpatch's own apply.
    assert json.dumps(jsonpatch.apply_patch(old, ops)) == json.dumps(new)


def test_an_event_id_is_a_cursor_and_anything_else_is_not() -> None:
    cursor = Cursor(seq=12, phases=3, agents=2, open_agents=1, calls=1, decisions=4, published=0)
    assert Cursor.parse(cursor.token()) == cursor
    for bad in ("", "not-an-id", "1.2.3", "1.2.3.4.5.6.x", "1.2.1.2.0.0.0", "-1.0.0.0.0.0.0"):
        assert Cursor.parse(bad) is None, bad
