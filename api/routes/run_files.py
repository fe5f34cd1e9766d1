"""`GET /api/runs/{id}/files?path=`: the text of a research file the workspace lists."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel
from temporalio.client import WorkflowQueryFailedError
from temporalio.service import RPCError

from api.auth import Miner
from api.deps import RUN_RPC_TIMEOUT, TemporalClient, owned, rpc_http_error
from workflows.mining import MiningWorkflow

router = APIRouter(prefix="/api/runs", tags=["runs"])


class ResearchFile(BaseModel):
    path: str
    size: int
    content: str


@router.get("/{run_id}/files")
async def research_file(
    run_id: str,
    client: TemporalClient,
    who: Miner,
    path: str = Query(min_length=1, max_length=1024, description="a path from filesystemFiles"),
) -> ResearchFile:
    """One of the run's research files (`/research/*`), as the agents wrote it."""
    handle = await owned(client, run_id, who)
    try:
        text = await handle.query(MiningWorkflow.research_file, path, rpc_timeout=RUN_RPC_TIMEOUT)
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    except WorkflowQueryFailedError as exc:
        raise HTTPException(409, f"run {run_id} cannot show its files: {exc}") from exc
    if text is None:
        raise HTTPException(404, f"run {run_id} has no file {path}")
    return ResearchFile(path=path, size=len(text.encode()), content=text)
