"""`kminer corpus add|list|remove|search`: the user's own documents in the local index.

A thin shell over `storage.corpus.index.CorpusIndex`: it only opens the SQLite
file `DATA_DIR/corpus.db`, so it works while `kminer up` serves the same data dir
(SQLite's lock orders the writers). Bad input is one line on stderr and exit 2;
the commands return exit codes instead of raising, so they need nothing from
`kminer.cli` (which imports this module).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kminer.config import load_settings

TIERS = ("high", "medium", "low")
_SNIPPET_CHARS = 240


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not {value!r}")
    return number


def add_corpus_parser(
    sub: Any, with_data_dir: Callable[[argparse.ArgumentParser], argparse.ArgumentParser]
) -> None:
    """The `corpus` command and its four subcommands, on the CLI's subparsers."""
    corpus = sub.add_parser("corpus", help="index and search your own documents")
    csub = corpus.add_subparsers(dest="corpus_command", required=True)
    add = with_data_dir(csub.add_parser("add", help="index files or folders (md, txt, html, pdf)"))
    add.add_argument("--tier", choices=TIERS, help="declared reliability of these sources")
    add.add_argument("paths", nargs="+", metavar="PATH", help="a file, or a folder (recursive)")
    listing = with_data_dir(csub.add_parser("list", help="list the indexed documents"))
    listing.add_argument("--json", action="store_true", help="print JSON")
    remove = with_data_dir(csub.add_parser("remove", help="remove an added document"))
    remove.add_argument("ref", metavar="REF", help="document id, file path or source URL")
    search = with_data_dir(csub.add_parser("search", help="search passages"))
    search.add_argument("query", metavar="QUERY")
    search.add_argument("--limit", type=_positive, default=5, help="hits to show (default 5)")
    search.add_argument("--json", action="store_true", help="print JSON")


def _open_index(args: argparse.Namespace) -> Any:
    from storage.corpus.index import CorpusIndex

    settings = load_settings(getattr(args, "data_dir", None))
    return CorpusIndex(settings.data_dir / "corpus.db", settings.corpus_dir)


def _one_line(text: str, limit: int | None = None) -> str:
    flat = " ".join(str(text).split())
    if limit is not None and len(flat) > limit:
        return flat[: limit - 3].rstrip() + "..."
    return flat


def _fail(message: str) -> int:
    print(f"kminer: {_one_line(message)}", file=sys.stderr)
    return 2


def _add(args: argparse.Namespace) -> int:
    index = _open_index(args)
    report = index.add([Path(p) for p in args.paths], tier=args.tier)
    lines = [(p, "added", "") for p in report.added]
    lines += [(p, "updated", "") for p in report.updated]
    lines += [(p, "unchanged", "") for p in report.unchanged]
    lines += [(p, "duplicate", f"  (same bytes as {other})") for p, other in report.duplicates]
    for path, status, note in sorted(lines, key=lambda line: str(line[0])):
        print(f"{status:<10} {path}{note}")
    for path, reason in report.errors:
        _fail(f"cannot index {path}: {reason}")
    print(
        f"{len(report.added)} added, {len(report.updated)} updated, "
        f"{len(report.unchanged)} unchanged, {len(report.duplicates)} duplicates, "
        f"{len(report.errors)} failed; the corpus holds {index.count()} documents"
    )
    return 2 if report.errors else 0


def _list(args: argparse.Namespace) -> int:
    docs = _open_index(args).documents()
    if args.json:
        print(json.dumps([doc.model_dump() for doc in docs], indent=2))
        return 0
    print(f"{'id':>5}  {'origin':<7}  {'passages':>8}  {'title':<48}  source")
    for doc in docs:
        title = _one_line(doc.title, 48)
        print(f"{doc.id:>5}  {doc.origin:<7}  {doc.passages:>8}  {title:<48}  {doc.url}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    removed = _open_index(args).remove(args.ref)
    if not removed:
        return _fail(f"no added document matches {args.ref!r} (see kminer corpus list)")
    print(f"removed {removed} document{'s' if removed != 1 else ''}")
    return 0


def _search(args: argparse.Namespace) -> int:
    hits = _open_index(args).search(args.query, max_results=args.limit)
    if args.json:
        print(json.dumps([hit.model_dump() for hit in hits], indent=2))
        return 0
    if not hits:
        print("no passage matches")
    for rank, hit in enumerate(hits, 1):
        print(f"{rank}. [{hit.score:.3f}] {_one_line(hit.title, 90)}")
        print(f"   {hit.url}")
        print(f"   passage {hit.passageId}  chars {hit.start}-{hit.end}")
        print(f"   {_one_line(hit.content, _SNIPPET_CHARS)}")
    return 0


_SUBCOMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "add": _add,
    "list": _list,
    "remove": _remove,
    "search": _search,
}


async def cmd_corpus(args: argparse.Namespace) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a title in any script must not crash a print
            stream.reconfigure(errors="replace")
    return _SUBCOMMANDS[args.corpus_command](args)
