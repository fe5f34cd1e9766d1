"""Who the bearer token stands for, as the API sees it: the chat UI asks this before it
opens, so a forged, expired or foreign token is refused at sign-in (401 in words) instead
of at the first call that needs it."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from api.auth import Miner

router = APIRouter(prefix="/api", tags=["auth"])


class Me(BaseModel):
    sub: str
    role: str


@router.get("/me")
async def me(who: Miner) -> Me:
    return Me(sub=who.sub, role=who.role)
