"""Shared FastAPI dependencies: the Temporal client and the worker-side services."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from temporalio.client import Client
from temporalio.service import RPCError, RPCStatusCode

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
