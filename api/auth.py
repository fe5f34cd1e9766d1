"""Who is calling: bearer JWTs (HS256) with a role, checked as FastAPI dependencies.

Roles are ordered: `miner` starts runs and reads its own; `reviewer` also decides and
reads every run; `admin` also edits memory notes. The signing secret is
`KM_JWT_SECRET`, or one generated once into the data dir (`jwt-secret`, mode 0600), so
`kminer token` and `kminer up` on one data dir agree without configuration.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import jwt
from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

ROLES = ("miner", "reviewer", "admin")
ISSUER = "knowledge-miner"
DEFAULT_TTL_SECONDS = 12 * 3600
SECRET_FILE = "jwt-secret"
MIN_SECRET_CHARS = 32  # HS256 wants a key at least as long as its hash


@dataclass(frozen=True)
class Principal:
    sub: str
    role: str

    def at_least(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)


def load_secret(data_dir: Path) -> str:
    """KM_JWT_SECRET, else the data dir's own secret (created on first use)."""
    configured = os.environ.get("KM_JWT_SECRET")
    if configured:
        if len(configured) < MIN_SECRET_CHARS:
            raise ValueError(f"KM_JWT_SECRET must be at least {MIN_SECRET_CHARS} characters")
        return configured
    path = data_dir / SECRET_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


class TokenIssuer:
    def __init__(self, secret: str) -> None:
        self._secret = secret

    def mint(self, sub: str, role: str, ttl_seconds: int = DEFAULT_TTL_SECONDS) -> str:
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}: one of {', '.join(ROLES)}")
        if not sub.strip():
            raise ValueError("a token needs a subject (--sub)")
        now = int(time.time())
        claims = {"sub": sub, "role": role, "iss": ISSUER, "iat": now, "exp": now + ttl_seconds}
        return jwt.encode(claims, self._secret, algorithm="HS256")

    def verify(self, token: str) -> Principal:
        try:
            claims = jwt.decode(
                token,
                self._secret,
                algorithms=["HS256"],
                issuer=ISSUER,
                options={"require": ["exp", "sub", "iss"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise HTTPException(401, "token expired", {"WWW-Authenticate": "Bearer"}) from exc
        except jwt.PyJWTError as exc:
            raise HTTPException(
                401, f"invalid token: {exc}", {"WWW-Authenticate": "Bearer"}
            ) from exc
        role = claims.get("role")
        if role not in ROLES:
            raise HTTPException(401, "token carries no known role", {"WWW-Authenticate": "Bearer"})
        return Principal(sub=str(claims["sub"]), role=role)


_bearer = HTTPBearer(auto_error=False)


def principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise HTTPException(401, "sign in: send Authorization: Bearer <token>",
                            {"WWW-Authenticate": "Bearer"})  # fmt: skip
    issuer: TokenIssuer = request.app.state.issuer
    return issuer.verify(credentials.credentials)


def require(role: str) -> Any:
    """A dependency admitting principals of `role` or above (403 otherwise)."""

    def check(who: Annotated[Principal, Depends(principal)]) -> Principal:
        if not who.at_least(role):
            raise HTTPException(403, f"role {who.role!r} may not do this: needs {role!r}")
        return who

    return check


Miner = Annotated[Principal, Depends(require("miner"))]
Reviewer = Annotated[Principal, Depends(require("reviewer"))]
Admin = Annotated[Principal, Depends(require("admin"))]
