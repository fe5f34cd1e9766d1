"""What a model call is sent of its conversation: `extract_statements`' answers as
compact rows.

The discovery model reads every statement `extract_statements` returned, in each later
call of its loop; with their sentences and provenance that answer was the largest part
of every discovery call (10 k of the 17 k tokens of the demo question's last one,
bench/model_cost.py). The model needs what was found (ends, relation, relevance) to judge
whether to search on, not the provenance or the UALs (enrichment links the names later,
shown the UALs): the workflow reads the full statements from its own messages, and only
the copy sent to the model is compacted (`contracts.model_views`).
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import BaseMessage, ToolMessage

from contracts.activity_names import EXTRACT_STATEMENTS
from contracts.model_views import FOUND_FIELDS, statement_views


def _compact(content: Any) -> Any:
    """An `extract_statements` answer (a ToolResponse as JSON) with compact result rows;
    anything else as it is."""
    if not isinstance(content, str):
        return content
    try:
        body = json.loads(content)
    except json.JSONDecodeError:
        return content
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        return content
    rows = [r for r in body["results"] if isinstance(r, dict)]
    if len(rows) != len(body["results"]):
        return content
    return json.dumps({**body, "results": statement_views(rows, FOUND_FIELDS)})


def model_view(messages: list[BaseMessage]) -> list[BaseMessage]:
    """`messages` as the model is sent them."""
    return [
        m.model_copy(update={"content": _compact(m.content)})
        if isinstance(m, ToolMessage) and m.name == EXTRACT_STATEMENTS
        else m
        for m in messages
    ]
