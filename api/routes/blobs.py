"""Blobs: tool answers too large for workflow history, read through the run that wrote them.

A blob is served to who may read one of the runs that wrote it, by the rule runs follow
(`api/deps.py` `owned`): a `reviewer` or `admin` reads every run's, a `miner` only the
blobs of its own runs. Anyone else gets the same 404 as for a blob that does not exist.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path
from pydantic import BaseModel

from api.auth import Miner
from api.deps import Services
from storage.sql.blobs import BlobStore

router = APIRouter(prefix="/api", tags=["blobs"])

Sha256 = Annotated[str, Path(pattern=r"^[0-9a-f]{64}$", description="the blob's SHA-256, hex")]


class BlobOut(BaseModel):
    sha256: str
    size: int
    content: str


@router.get("/blobs/{sha256}")
async def get_blob(sha256: Sha256, services: Services, who: Miner) -> BlobOut:
    blob = await asyncio.to_thread(
        BlobStore(services.engine).readable, sha256, who.sub, who.at_least("reviewer")
    )
    if blob is None:
        raise HTTPException(404, f"no blob {sha256}")
    return BlobOut(sha256=blob.sha256, size=blob.size, content=blob.content)
