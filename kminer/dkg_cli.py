"""`kminer dkg query | get | load | backup | restore`: the DKG store from the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kminer.cli_args import UsageError, command_settings


def _dkg_print(value: object) -> None:
    print(json.dumps(value, indent=2, default=str))


async def cmd_dkg(args: argparse.Namespace) -> int:
    from kminer.stack import read_stack_file
    from storage.dkg.embedded import EmbeddedDkg
    from storage.dkg.factory import open_dkg
    from storage.dkg.interface import SPARQL_ANSWER, DkgError

    settings = command_settings(args)
    if args.dkg_command in ("backup", "restore"):
        from kminer.db_cli import backup_dkg, restore_dkg

        run = backup_dkg if args.dkg_command == "backup" else restore_dkg
        return run(settings, Path(args.file))
    if read_stack_file(settings) and not settings.dkg_node_url:
        raise UsageError("a kminer stack holds this DKG store; use its API (/api/dkg/...)")
    try:
        dkg = open_dkg(settings.dkg_node_url, settings.data_dir, settings.seed_dir)
    except DkgError as exc:
        raise UsageError(str(exc)) from None
    try:
        if args.dkg_command == "query":
            result = dkg.query(args.sparql, row_limit=args.limit)
            _dkg_print(result.model_dump(include=SPARQL_ANSWER))
        elif args.dkg_command == "get":
            asset = dkg.get_asset(args.ual)
            if asset is None:
                raise UsageError(f"no Knowledge Asset {args.ual}")
            meta = dkg.get_metadata(args.ual)
            _dkg_print({"asset": asset, "metadata": meta.model_dump() if meta else None})
        else:
            if not isinstance(dkg, EmbeddedDkg):
                raise UsageError("load writes to the embedded store only (DKG_NODE_URL is set)")
            path = Path(args.path)
            if not path.exists():
                raise UsageError(f"no such file or directory: {path}")
            try:
                count = dkg.load_seed_dir(path) if path.is_dir() else dkg.load_jsonld_file(path)
            except ValueError as exc:  # malformed JSON
                raise UsageError(f"{path}: not valid JSON-LD: {exc}") from None
            print(f"loaded {count} assets; store holds {dkg.count_assets()}")
    except DkgError as exc:
        raise UsageError(str(exc)) from None
    finally:
        dkg.close()
    return 0
