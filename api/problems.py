"""Errors as RFC 9457 problem details (application/problem+json), `detail` in words."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

MEDIA_TYPE = "application/problem+json"


class Problem(BaseModel):
    """What every error answer carries (RFC 9457)."""

    type: str = "about:blank"
    title: str
    status: int
    detail: Any = None
    errors: list[dict[str, Any]] | None = None


def problem(status: int, detail: Any, **extra: Any) -> dict[str, Any]:
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = "Error"
    return {"type": "about:blank", "title": title, "status": status, "detail": detail, **extra}


def document(schema: dict[str, Any]) -> dict[str, Any]:
    """Every operation's error answers, as sent: problem details, for any 4xx or 5xx."""
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    schemas["Problem"] = Problem.model_json_schema()
    content = {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for code, answer in responses.items():
                if code[0] in "45":
                    answer["content"] = content
            error = {"description": "An error, as RFC 9457 problem details", "content": content}
            responses.setdefault("default", error)
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    return schema


# The methods a route may declare; a 405's Allow lists those some route answers.
HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app answers at the request's path.

    Starlette's 405 names only the methods of the first route whose path matched, so a
    path served by two routes (a note's GET and PUT) would claim to allow one of them.
    Each method is tried against the routes' own matching (mounted apps left out: they
    answer every method and refuse inside).
    """
    routes = [r for r in request.app.router.routes if not isinstance(r, Mount)]
    allowed = []
    for method in HTTP_METHODS:
        probe = {
            "type": "http",
            "path": request.scope["path"],
            "root_path": request.scope.get("root_path", ""),
            "method": method,
        }
        if any(route.matches(probe)[0] == Match.FULL for route in routes):
            allowed.append(method)
    return allowed


def install(app: FastAPI) -> None:
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(StarletteHTTPException)
    async def http_problem(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        if exc.status_code == 405 and (allowed := allowed_methods(request)):
            headers["Allow"] = ", ".join(allowed)
        return JSONResponse(
            problem(exc.status_code, exc.detail),
            status_code=exc.status_code,
            headers=headers,
            media_type=MEDIA_TYPE,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in exc.errors()
        ]
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
        return JSONResponse(
            problem(422, detail, errors=errors), status_code=422, media_type=MEDIA_TYPE
        )
