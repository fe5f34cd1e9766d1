"""The chat UI: one page at `/`, its static files, and Cytoscape.js from `make install`.

Nothing here needs a token: the page signs in with the bearer token it is handed
(`kminer up` prints a link carrying one after `#token=`, which never reaches the server)
and sends it with every `/api` call. None of these routes is part of the OpenAPI schema.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

# The page and its files live beside the routers, in api/ui/ (package data).
UI_DIR = Path(__file__).resolve().parents[1] / "ui"
STATIC_DIR = UI_DIR / "static"
# Installed by `make install` (npm ci into api/ui/vendor), never committed.
CYTOSCAPE_DIR = UI_DIR / "vendor" / "node_modules" / "cytoscape" / "dist"
MARKDOWN_IT_DIR = UI_DIR / "vendor" / "node_modules" / "markdown-it" / "dist" / "browser"
NO_CACHE = {"Cache-Control": "no-cache"}


def sign_in_link(api_url: str, token: str) -> str:
    """The local link that opens the UI signed in: the token rides in the fragment."""
    return f"{api_url.rstrip('/')}/#token={token}"


def mount_ui(app: FastAPI) -> None:
    """Serve the page at `/`, its files under `/ui/static`, Cytoscape.js and markdown-it
    under `/ui/vendor`."""

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers=NO_CACHE)

    app.mount("/ui/static", StaticFiles(directory=STATIC_DIR), name="ui-static")
    # check_dir=False: without `make install` the page still works and says the graph
    # library is missing instead of the app failing to start.
    app.mount(
        "/ui/vendor/cytoscape",
        StaticFiles(directory=CYTOSCAPE_DIR, check_dir=False),
        name="ui-cytoscape",
    )
    app.mount(
        "/ui/vendor/markdown-it",
        StaticFiles(directory=MARKDOWN_IT_DIR, check_dir=False),
        name="ui-markdown-it",
    )
