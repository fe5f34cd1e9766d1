"""`kminer db upgrade|current`: the database schema through Alembic migrations."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kminer.config import Settings, load_settings


class DbUsageError(Exception):
    """A bad DATABASE_URL: one line, exit 2."""


def add_db_parser(sub: Any, with_data_dir: Callable[[Any], Any]) -> None:
    db = sub.add_parser("db", help="database schema: upgrade to head, show the revision")
    dsub = db.add_subparsers(dest="db_command", required=True)
    with_data_dir(dsub.add_parser("upgrade", help="apply every migration not yet applied"))
    with_data_dir(dsub.add_parser("current", help="print the database's schema revision"))


def _engine(url: str) -> Any:
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from storage.sql.db import make_engine

    try:
        return make_engine(url, migrate=False)
    except (ArgumentError, NoSuchModuleError, ValueError) as exc:
        raise DbUsageError(f"DATABASE_URL is not a usable database URL: {exc}") from None


async def cmd_db(args: argparse.Namespace) -> int:
    from storage.sql.migrate import current_revision, head_revision, upgrade

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


def backup_dkg(settings: Settings, target: Path) -> int:
    """`kminer dkg backup FILE`: every quad of the embedded store as N-Quads, read from a
    read-only snapshot, so the worker that owns the store keeps running."""
    from storage.dkg.embedded import EmbeddedDkg
    from storage.dkg.interface import DkgError

    if settings.dkg_node_url:
        raise DbUsageError("DKG_NODE_URL is set: a remote node's assets are backed up there")
    if target.exists():
        raise DbUsageError(f"{target} exists; a backup goes to a new file")
    try:
        with EmbeddedDkg(settings.dkg_dir, read_only=True) as dkg:
            count = dkg.count_assets()
            dkg.export_nquads(target)
    except DkgError as exc:
        raise DbUsageError(str(exc)) from None
    print(f"backed up {count} Knowledge Assets from {settings.dkg_dir} to {target}")
    return 0


def restore_dkg(settings: Settings, source: Path) -> int:
    """`kminer dkg restore FILE`: a backup into an empty store; the owner must be stopped."""
    from storage.dkg.embedded import EmbeddedDkg

    if settings.dkg_node_url:
        raise DbUsageError("DKG_NODE_URL is set: there is no embedded store to restore")
    if not source.is_file():
        raise DbUsageError(f"no backup file {source}")
    try:
        dkg = EmbeddedDkg(settings.dkg_dir)
    except OSError as exc:  # RocksDB's lock: a worker owns the store
        where = settings.dkg_dir
        raise DbUsageError(f"cannot open {where} (stop its worker first): {exc}") from None
    with dkg:
        if dkg.count_assets():
            raise DbUsageError(
                f"{settings.dkg_dir} already holds assets; restore into an empty KM_DATA_DIR/dkg"
            )
        try:
            dkg.import_nquads(source)
        except (OSError, SyntaxError, ValueError) as exc:
            raise DbUsageError(f"{source} is not an N-Quads backup: {exc}") from None
        count = dkg.count_assets()
    print(f"restored {count} Knowledge Assets from {source} into {settings.dkg_dir}")
    return 0
