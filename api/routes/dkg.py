"""Reading the DKG: SPARQL and assets."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from api.auth import Miner
from api.deps import Services

router = APIRouter(prefix="/api", tags=["dkg"])


class SparqlRequest(BaseModel):
    query: str = Field(min_length=1)
    limit: int = Field(default=100, ge=1, le=1000)


@router.post("/dkg/sparql")
def sparql(body: SparqlRequest, services: Services, who: Miner) -> dict[str, Any]:
    from storage.dkg.interface import SPARQL_ANSWER, DkgError

    try:
        result = services.dkg.query(body.query, row_limit=body.limit)
    except DkgError as exc:
        raise HTTPException(400, str(exc)) from exc
    return result.model_dump(include=SPARQL_ANSWER)


@router.get("/dkg/assets/{ual:path}")
def get_asset(ual: str, services: Services, who: Miner) -> dict[str, Any]:
    from storage.dkg.interface import DkgError

    try:
        asset = services.dkg.get_asset(ual)
        meta = services.dkg.get_metadata(ual) if asset is not None else None
    except DkgError as exc:
        raise HTTPException(502, f"DKG: {exc}") from exc
    if asset is None:
        raise HTTPException(404, f"no Knowledge Asset {ual}")
    return {"ual": ual, "asset": asset, "metadata": meta.model_dump() if meta else None}
