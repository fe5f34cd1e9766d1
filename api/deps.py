"""Shared FastAPI dependencies: the Temporal client, the worker-side services, and the
handle of a run the caller may see."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from temporalio.client import Client, WorkflowHandle
from temporalio.service import RPCError, RPCStatusCode

from api.auth import Principal
from contracts.run import PRINCIPAL_MEMO

# How long the API waits on one call into a run (query, describe, result) before giving up.
RUN_RPC_TIMEOUT = timedelta(seconds=10)


def temporal(request: Request) -> Client:
    return request.app.state.client


def services(request: Request) -> Any:
    attached = request.app.state.services
    if attached is None:
        raise HTTPException(503, "this API process has no DKG / database attached")
    return attached


def rpc_http_error(exc: RPCError, run_id: str) -> HTTPException:
    """Temporal's answer as HTTP: an unknown run is 404, an unreachable server 503."""
    if exc.status == RPCStatusCode.NOT_FOUND:
        return HTTPException(404, f"run {run_id} not found")
    if exc.status == RPCStatusCode.ALREADY_EXISTS:
        return HTTPException(409, f"run {run_id} already exists")
    return HTTPException(503, f"Temporal unavailable: {exc.message}")


TemporalClient = Annotated[Client, Depends(temporal)]
Services = Annotated[Any, Depends(services)]


async def owned(client: TemporalClient, run_id: str, who: Principal) -> WorkflowHandle:
    """The run's handle, if `who` may see it (404 otherwise: not even its existence).

    A `miner` sees only the runs it started (the run's memo names its principal); a
    `reviewer` or `admin` sees all of them.
    """
    handle = client.get_workflow_handle(run_id)
    if who.at_least("reviewer"):
        return handle
    try:
        memo = await (await handle.describe()).memo()
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    if memo.get(PRINCIPAL_MEMO) != who.sub:
        raise HTTPException(404, f"run {run_id} not found")
    return handle
