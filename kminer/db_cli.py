"""`kminer db upgrade|current`: the database schema through Alembic migrations."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from kminer.config import load_settings


class DbUsageError(Exception):
    """A bad DATABASE_URL: one line, exit 2."""


def add_db_parser(sub: Any, with_data_dir: Callable[[Any], Any]) -> None:
    db = sub.add_parser("db", help="database schema: upgrade to head, show the revision")
    dsub = db.add_subparsers(dest="db_command", required=True)
    with_data_dir(dsub.add_parser("upgrade", help="apply every migration not yet applied"))
    with_data_dir(dsub.add_parser("current", help="print the database's schema revision"))


def _engine(url: str) -> Any:
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from storage.db import make_engine

    try:
        return make_engine(url, migrate=False)
    except (ArgumentError, NoSuchModuleError, ValueError) as exc:
        raise DbUsageError(f"DATABASE_URL is not a usable database URL: {exc}") from None


async def cmd_db(args: argparse.Namespace) -> int:
    from storage.migrate import current_revision, head_revision, upgrade

    try:
        settings = load_settings(getattr(args, "data_dir", None))
    except ValueError as exc:
        raise DbUsageError(str(exc)) from None
    if settings.database_url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = _engine(settings.database_url)
    where = engine.url.render_as_string(hide_password=True)
    head = head_revision()
    try:
        if args.db_command == "upgrade":
            before, after = upgrade(engine)
            if before == after:
                print(f"{where}: already at {after} (head)")
            else:
                print(f"{where}: upgraded {before or 'empty'} -> {after} (head)")
            return 0
        revision = current_revision(engine)
        if revision is None:
            print(f"{where}: no revision (empty, or made before migrations); run kminer db upgrade")
        else:
            print(f"{where}: {revision}" + (" (head)" if revision == head else f" (head {head})"))
        return 0
    finally:
        engine.dispose()
