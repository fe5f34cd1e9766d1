"""Pick the DKG implementation: a real node when a URL is configured, else the embedded one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.interface import PREFIXES, DkgError, DkgQueryError, SparqlResult
from storage.dkg.sparql_guard import SparqlRefused
from storage.dkg.sparql_sandbox import SparqlSandbox, run_read_query

if TYPE_CHECKING:
    from storage.dkg.remote import RemoteDkg


class DkgSnapshotReader:
    """Reads of an embedded store that another process owns and writes (the tools worker):
    each call opens a fresh read-only snapshot, so it sees every asset published before it.
    SPARQL goes to evaluator processes (`storage.dkg.sparql_sandbox`), kept between calls,
    that open such a snapshot for each query.
    """

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._sandbox = SparqlSandbox(self._path)

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        with EmbeddedDkg(self._path, read_only=True) as dkg:
            return getattr(dkg, method)(*args, **kwargs)

    def query(self, sparql: str, *, row_limit: int = 500, timeout_s: float = 5.0) -> SparqlResult:
        if not self._path.is_dir():
            raise DkgError(f"no DKG store at {self._path} yet")
        try:
            return run_read_query(
                self._sandbox,
                sparql,
                prefixes=PREFIXES,
                row_limit=row_limit,
                timeout_s=timeout_s,
                union_default_graph=True,
            )
        except SparqlRefused as exc:
            raise DkgQueryError(str(exc)) from exc

    def get_asset(self, ual: str) -> Any:
        return self._call("get_asset", ual)

    def get_metadata(self, ual: str) -> Any:
        return self._call("get_metadata", ual)

    def count_assets(self) -> int:
        return self._call("count_assets")

    def close(self) -> None:
        self._sandbox.close()  # only the evaluators are held between calls


def open_dkg(dkg_node_url: str | None, data_dir: Path, seed_dir: Path) -> EmbeddedDkg | RemoteDkg:
    """RemoteDkg for `dkg_node_url`; otherwise the embedded store in data_dir/"dkg", seeded.

    A remote node is never seeded: its assets are the network's, and writing demo assets
    to it would cost real tokens.
    """
    if dkg_node_url and dkg_node_url.strip():
        # Imported here so embedded setups never load the SDK (web3, pandas: seconds).
        from storage.dkg.remote import RemoteDkg

        return RemoteDkg(dkg_node_url.strip())
    dkg = EmbeddedDkg(Path(data_dir) / "dkg")
    try:
        dkg.ensure_seeded(Path(seed_dir))
    except BaseException:
        dkg.close()  # release the RocksDB lock so a retry can reopen the store
        raise
    return dkg
