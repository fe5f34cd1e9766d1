"""Carry the run's principal from the workflow to its activities in a header.

The API names who started a run in the run's memo; the workflow copies it into
a header on every activity it starts, and the activity side puts it in a
context variable, so an audit row written deep inside a tool knows whom it
acts for without every activity input growing a field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from temporalio import activity, workflow
from temporalio.api.common.v1 import Payload
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
    StartActivityInput,
    StartLocalActivityInput,
    WorkflowInboundInterceptor,
    WorkflowInterceptorClassInput,
    WorkflowOutboundInterceptor,
)

from activities.run_context import PRINCIPAL_HEADER, acting_for
from contracts.run import PRINCIPAL_MEMO


def _principal_header() -> Payload | None:
    principal = workflow.memo_value(PRINCIPAL_MEMO, None, type_hint=str)
    if not isinstance(principal, str):
        return None
    return workflow.payload_converter().to_payload(principal)


class _PrincipalOutbound(WorkflowOutboundInterceptor):
    # One per workflow run: the memo is written when the run starts and never changed, so
    # its header is encoded once, not for each of the run's activities.
    _header: Payload | None = None
    _encoded = False

    def _with_principal(self, headers: Mapping[str, Payload]) -> Mapping[str, Payload]:
        if not self._encoded:
            self._header, self._encoded = _principal_header(), True
        return headers if self._header is None else {**headers, PRINCIPAL_HEADER: self._header}

    def start_activity(self, input: StartActivityInput) -> Any:
        input.headers = self._with_principal(input.headers)
        return super().start_activity(input)

    def start_local_activity(self, input: StartLocalActivityInput) -> Any:
        input.headers = self._with_principal(input.headers)
        return super().start_local_activity(input)


class _PrincipalWorkflowInbound(WorkflowInboundInterceptor):
    def init(self, outbound: WorkflowOutboundInterceptor) -> None:
        super().init(_PrincipalOutbound(outbound))


class _PrincipalActivityInbound(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        payload = input.headers.get(PRINCIPAL_HEADER)
        principal = activity.payload_converter().from_payload(payload, str) if payload else None
        with acting_for(principal):
            return await super().execute_activity(input)


class PrincipalInterceptor(Interceptor):
    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _PrincipalActivityInbound(next)

    def workflow_interceptor_class(
        self, input: WorkflowInterceptorClassInput
    ) -> type[WorkflowInboundInterceptor]:
        return _PrincipalWorkflowInbound
