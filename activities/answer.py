"""The compose_answer activity: a thin adapter over mining/answer.py."""

from __future__ import annotations

from temporalio import activity

from contracts.run import Answer
from contracts.tools import AnswerArgs
from mining.answer import compose_answer


@activity.defn(name="compose_answer")
async def compose_answer_activity(args: AnswerArgs) -> Answer:
    return compose_answer(args)
