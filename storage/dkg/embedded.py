"""The embedded DKG: Knowledge Assets as named graphs in a pyoxigraph store.

Each asset lives in the named graph called by its UAL; its trust metadata
(stake, publisher, publish time, update count, content hash, label) and the
JSON-LD exactly as published live in the graph <did:dkg:metadata>, so both are
reachable with plain SPARQL, as on a real DKG node. What publishing writes is built
by `storage.dkg.embedded_records`; this module owns the store: queries, reads,
publishing, bulk loads, the label index and seeding.
"""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterable
from itertools import islice
from pathlib import Path
from typing import Any

from pyoxigraph import NamedNode, Quad, RdfFormat, Store

from storage.dkg.embedded_records import (
    JSONLD,
    METADATA_GRAPH,
    RDFS_LABEL,
    dkg_term,
    draft_asset,
    split_seed_item,
)
from storage.dkg.interface import (
    DKG_NS,
    PREFIXES,
    AssetMetadata,
    DkgError,
    DkgQueryError,
    DkgValidationError,
    DuplicateMatch,
    PublishResult,
    RelatedAsset,
    SparqlResult,
)
from storage.dkg.jsonld_rdf import term_value
from storage.dkg.label_index import IndexEntry, LabelIndex, build_index, entry_from_asset
from storage.dkg.sparql_guard import SparqlRefused
from storage.dkg.sparql_sandbox import SparqlSandbox, run_in_process, run_read_query

SEED_DIR = Path(__file__).parent / "seed"


class EmbeddedDkg:
    """A local DKG: SPARQL 1.1 over named graphs, publish with minted UALs."""

    def __init__(self, path: Path | None = None, *, read_only: bool = False) -> None:
        """`read_only`: a snapshot of a store another process owns (RocksDB allows one
        writer per directory); it sees what was written before it was opened."""
        self._read_only = read_only
        self._path = Path(path) if path is not None else None
        if read_only:
            if path is None or not Path(path).is_dir():
                raise DkgError(f"no DKG store at {path} yet")
            self._store: Store | None = Store.read_only(str(path))
        else:
            if path is not None:
                Path(path).mkdir(parents=True, exist_ok=True)
            self._store = Store(str(path)) if path is not None else Store()
        self._lock = threading.RLock()
        self._hash_to_ual: dict[str, str] | None = None
        self._next_token = 1
        self._index: LabelIndex | None = None
        # SPARQL runs in evaluator processes over a read-only view of the store (see
        # `storage.dkg.sparql_sandbox`), started on the first query. They keep their view
        # while `_generation` holds; every write here bumps it so the next query reopens.
        self._sandbox: SparqlSandbox | None = None
        self._sandbox_lock = threading.Lock()  # not `_lock`: a query waits for no write
        self._generation = 0

    @property
    def _s(self) -> Store:
        if self._store is None:
            raise DkgError("the DKG store is closed")
        return self._store

    @property
    def path(self) -> Path | None:
        """The store's directory (None in memory)."""
        return self._path

    @property
    def sandbox(self) -> SparqlSandbox | None:
        """The SPARQL evaluators, once a query started them (None for a store in memory)."""
        return self._sandbox

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                if not self._read_only:
                    self._store.flush()
                self._store = None
                # RocksDB releases its directory lock only when the store is freed.
                gc.collect()
        with self._sandbox_lock:  # after the store: no query starts evaluators again
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None

    def __enter__(self) -> EmbeddedDkg:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- SPARQL ---------------------------------------------------------------------------

    def query(self, sparql: str, *, row_limit: int = 500, timeout_s: float = 5.0) -> SparqlResult:
        """A read-only query's result, at most `row_limit` rows; within `timeout_s` or
        refused (DkgQueryError naming the limit). An on-disk store evaluates it in a
        sandboxed evaluator process; a store in memory (tests) in this process."""
        try:
            if self._path is None:
                return run_in_process(
                    self._s,
                    sparql,
                    prefixes=PREFIXES,
                    row_limit=row_limit,
                    union_default_graph=True,
                )
            return run_read_query(
                self._evaluators(),
                sparql,
                prefixes=PREFIXES,
                row_limit=row_limit,
                timeout_s=timeout_s,
                # A snapshot opened per query sees what its owner wrote since this one opened.
                generation=None if self._read_only else self._generation,
                union_default_graph=True,
            )
        except SparqlRefused as exc:
            raise DkgQueryError(str(exc)) from exc

    def _evaluators(self) -> SparqlSandbox:
        with self._sandbox_lock:
            if self._store is None:
                raise DkgError("the DKG store is closed")
            if self._sandbox is None:
                self._sandbox = SparqlSandbox(self._path)
            return self._sandbox

    # -- reads ----------------------------------------------------------------------------

    def _meta_values(self, ual: str, predicate: NamedNode | None = None) -> dict[str, object]:
        """The asset's metadata by predicate IRI; with `predicate`, only that one."""
        try:
            node = NamedNode(ual)
        except ValueError:
            return {}
        quads = self._s.quads_for_pattern(node, predicate, None, METADATA_GRAPH)
        return {q.predicate.value: term_value(q.object) for q in quads}

    def get_asset(self, ual: str) -> dict[str, Any] | None:
        # Only the JSON-LD quad: the asset's other metadata is not read for nothing.
        raw = self._meta_values(ual, JSONLD).get(JSONLD.value)
        return json.loads(raw) if isinstance(raw, str) else None

    def get_metadata(self, ual: str) -> AssetMetadata | None:
        values = self._meta_values(ual)
        if DKG_NS + "tokenId" not in values:
            return None

        def get(key: str, default: object = None) -> Any:
            return values.get(DKG_NS + key, default)

        return AssetMetadata(
            ual=ual,
            tokenId=int(get("tokenId")),
            stakeAmount=float(get("stakeAmount", 0.0)),
            publisher=str(get("publisher", "")),
            publishTime=str(get("publishTime", "")),
            updateCount=int(get("updateCount", 0)),
            domain=get("domain"),
            label=values.get(RDFS_LABEL.value),  # type: ignore[arg-type]
        )

    def count_assets(self) -> int:
        with self._lock:
            return len(self._state())

    def export_nquads(self, target: Path) -> None:
        """Every quad (assets, metadata) as N-Quads. On a read-only snapshot this sees all
        the owner wrote before it was opened, flushed or not, so it runs while the owner
        keeps writing (a RocksDB checkpoint of a snapshot would miss unflushed writes)."""
        with self._lock:
            self._s.dump(str(target), RdfFormat.N_QUADS)

    def import_nquads(self, source: Path) -> None:
        """Load an `export_nquads` file (into an empty store: a restore)."""
        with self._lock:
            self._s.bulk_load(path=str(source), format=RdfFormat.N_QUADS)
            self._s.flush()
            self._generation += 1
            self._hash_to_ual = None
            self._index = None

    # -- publish --------------------------------------------------------------------------

    def _state(self) -> dict[str, str]:
        """content hash -> UAL, loaded once; also fixes the next token id."""
        if self._hash_to_ual is None:
            hashes: dict[str, str] = {}
            top = 0
            for q in self._s.quads_for_pattern(None, dkg_term("contentHash"), None, METADATA_GRAPH):
                hashes[q.object.value] = q.subject.value
            for q in self._s.quads_for_pattern(None, dkg_term("tokenId"), None, METADATA_GRAPH):
                top = max(top, int(q.object.value))
            self._hash_to_ual, self._next_token = hashes, top + 1
        return self._hash_to_ual

    def find_by_content_hash(self, digest: str) -> str | None:
        """The UAL already published with this content, if any."""
        with self._lock:
            return self._state().get(digest)

    def publish(
        self,
        asset: dict[str, Any],
        *,
        publisher: str,
        stake_amount: float = 0.0,
        domain: str | None = None,
        publish_time: str | None = None,
        update_count: int = 0,
    ) -> PublishResult:
        draft = draft_asset(
            asset,
            publisher=publisher,
            stake_amount=stake_amount,
            domain=domain,
            publish_time=publish_time,
            update_count=update_count,
        )
        with self._lock:
            hashes = self._state()
            if draft.digest in hashes:
                return PublishResult(ual=hashes[draft.digest], created=False)
            token = self._next_token
            ual, quads, entry = draft.records(token)
            self._s.extend(quads)
            self._generation += 1
            hashes[draft.digest] = ual
            self._next_token = token + 1
            if self._index is not None:
                self._index.add(entry)
        return PublishResult(ual=ual, created=True)

    def bulk_load(self, items: Iterable[Any], *, chunk_size: int = 20_000) -> int:
        """Publish many `{"asset": ..., "metadata": ...}` items (or bare assets) at once.

        Each item gets exactly the triples `publish` would write (content already in
        the store, or earlier in `items`, is skipped the same way), but they go through
        pyoxigraph's bulk loader, which writes the store's files directly instead of
        committing one transaction per asset: far faster for a large import. Items are
        validated and converted a chunk at a time and a chunk is written only once all
        of it converted, so an invalid item raises DkgValidationError with the earlier
        chunks stored and nothing of its own chunk. The bulk loader is not
        transactional: use it to build or extend a store, not for routine publishing.
        Returns the number of assets created.
        """
        if chunk_size < 1:
            raise ValueError("chunk_size must be >= 1")
        created = 0
        pending = iter(items)
        with self._lock:
            while chunk := list(islice(pending, chunk_size)):
                created += self._bulk_chunk(chunk)
        return created

    def _bulk_chunk(self, chunk: list[Any]) -> int:
        hashes = self._state()
        token = self._next_token
        minted: dict[str, str] = {}
        quads: list[Quad] = []
        entries: list[IndexEntry] = []
        for item in chunk:
            asset, kwargs = split_seed_item(item)
            draft = draft_asset(asset, **kwargs)
            if draft.digest in hashes or draft.digest in minted:
                continue
            ual, asset_quads, entry = draft.records(token)
            quads += asset_quads
            entries.append(entry)
            minted[draft.digest] = ual
            token += 1
        if quads:
            self._s.bulk_extend(quads)
            self._generation += 1
        hashes.update(minted)
        self._next_token = token
        if self._index is not None:
            for entry in entries:
                self._index.add(entry)
        return len(minted)

    # -- index-backed lookups -------------------------------------------------------------

    def _label_index(self) -> LabelIndex:
        if self._index is None:
            stake_quads = self._s.quads_for_pattern(
                None, dkg_term("stakeAmount"), None, METADATA_GRAPH
            )
            stakes = {q.subject.value: float(q.object.value) for q in stake_quads}
            self._index = build_index(
                entry_from_asset(
                    q.subject.value, json.loads(q.object.value), stakes.get(q.subject.value, 0.0)
                )
                for q in self._s.quads_for_pattern(None, dkg_term("jsonld"), None, METADATA_GRAPH)
            )
        return self._index

    def find_related(
        self, text: str, *, limit: int = 10, types: list[str] | None = None
    ) -> list[RelatedAsset]:
        with self._lock:
            matches = self._label_index().related(text, limit, types)
        return [RelatedAsset.from_match(m) for m in matches]

    def find_duplicates(self, asset: dict[str, Any]) -> list[DuplicateMatch]:
        if not isinstance(asset, dict):
            raise DkgValidationError("asset must be a JSON object")
        with self._lock:
            found = self._label_index().duplicates(asset)
        return [DuplicateMatch(ual=ual, reason=reason) for ual, reason in found]

    def gazetteer(self) -> list[tuple[str, str, str]]:
        with self._lock:
            return self._label_index().gazetteer()

    def places_of(self, ual: str) -> set[str]:
        """UALs of the places the asset `ual` is in (LabelIndex.places_of)."""
        with self._lock:
            return self._label_index().places_of(ual)

    def concerning(self, ual: str) -> list[tuple[str, str, str]]:
        """(label, ual, type) of the assets about the asset `ual` (LabelIndex.concerning)."""
        with self._lock:
            return self._label_index().concerning(ual)

    # -- seeding --------------------------------------------------------------------------

    def load_jsonld_file(self, path: Path) -> int:
        """Publish every `{"asset": ..., "metadata": ...}` item of a file; returns new count."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        created = 0
        for item in data if isinstance(data, list) else [data]:
            asset, kwargs = split_seed_item(item)
            created += int(self.publish(asset, **kwargs).created)
        return created

    def load_seed_dir(self, seed_dir: Path = SEED_DIR) -> int:
        return sum(self.load_jsonld_file(p) for p in sorted(Path(seed_dir).glob("*.json")))

    def ensure_seeded(self, seed_dir: Path = SEED_DIR) -> int:
        with self._lock:
            return 0 if self.count_assets() else self.load_seed_dir(seed_dir)
