"""The remote DKG: a real OriginTrail node (ot-node v8) through the official `dkg` SDK.

`RemoteDkg` answers the same interface as the embedded store (`storage.dkg.interface`)
from a node: its requests and their errors are `storage.dkg.remote_node`'s, decoding
the node's answers is `storage.dkg.remote_answers`', stakes are read from the chain by
`storage.dkg.remote_stake` (a node does not report them) and publishing, which alone
needs a wallet, is `storage.dkg.remote_publish`'s. Reads need no wallet and no RPC.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from mining.jsonld import SCHEMA
from mining.names import normalise_name
from storage.dkg.interface import (
    DKG_NS,
    AssetMetadata,
    DkgError,
    DkgQueryError,
    DkgValidationError,
    DuplicateMatch,
    PublishResult,
    RelatedAsset,
    SparqlResult,
)
from storage.dkg.jsonld_rdf import Value
from storage.dkg.label_index import build_index, entry_from_asset
from storage.dkg.remote_answers import (
    as_tree,
    construct_rows,
    decode_binding,
    label_entries,
    select_bindings,
    sparql_iri,
    sparql_string,
)
from storage.dkg.remote_node import NodeClient, NodeInfo
from storage.dkg.remote_publish import RemotePublisher
from storage.dkg.remote_stake import STAKE_TTL_S, StakeReader, stake_with_note

DEFAULT_BLOCKCHAIN = "otp:20430"
GAZETTEER_LIMIT = 5000
_LOOKUP_LIMIT = 1000
_NO_UPDATES = "the node does not report an update count; updateCount 0 means unknown"


class RemoteAssetMetadata(AssetMetadata):
    """AssetMetadata plus notes on the fields a node cannot fill in.

    stakeAmount is None when the stake is unknown (no RPC, or the chain read failed): a
    remote asset whose stake could not be read is not an asset without stake.
    """

    stakeAmount: float | None = None  # type: ignore[assignment]
    notes: list[str] = []


class RemoteRelatedAsset(RelatedAsset):
    """A find_related row whose stake is None when it could not be read from the chain."""

    stakeAmount: float | None = None  # type: ignore[assignment]


class RemoteDkg:
    """The miner's Dkg interface over an ot-node v8, read-only unless a wallet is set."""

    def __init__(
        self,
        node_url: str | None = None,
        *,
        blockchain: str | None = None,
        private_key: str | None = None,
        rpc_url: str | None = None,
        auth_token: str | None = None,
        request_timeout_s: float = 30.0,
        poll_interval_s: float = 2.0,
        max_polls: int = 15,
        epochs: int = 2,
        rpc_timeout_s: float = 5.0,
        stake_cache_s: float = STAKE_TTL_S,
    ) -> None:
        url = node_url or os.environ.get("DKG_NODE_URL")
        if not url:
            raise DkgError("a remote DKG needs a node URL (DKG_NODE_URL)")
        self.node_url = url.rstrip("/")
        self.blockchain = blockchain or os.environ.get("DKG_BLOCKCHAIN") or DEFAULT_BLOCKCHAIN
        private_key = private_key or os.environ.get("DKG_PRIVATE_KEY") or None
        rpc_url = rpc_url or os.environ.get("DKG_BLOCKCHAIN_RPC") or None
        self._lock = threading.Lock()
        self._gazetteer: list[tuple[str, str, str]] | None = None
        self._built = 0.0
        self._node = NodeClient(
            self.node_url,
            request_timeout_s=request_timeout_s,
            auth_token=auth_token or os.environ.get("DKG_NODE_AUTH_TOKEN") or None,
            poll_interval_s=poll_interval_s,
            max_polls=max_polls,
        )
        self._publisher = RemotePublisher(
            self._node,
            blockchain=self.blockchain,
            private_key=private_key,
            rpc_url=rpc_url,
            epochs=epochs,
        )
        # Stake reads need only the RPC (no wallet); without one every stake is unknown.
        self._stakes = StakeReader(rpc_url, rpc_timeout_s, stake_cache_s) if rpc_url else None

    def close(self) -> None:
        """Stops the query checker's evaluator; each SDK request is its own HTTP exchange."""
        self._node.close()

    def node_info(self) -> NodeInfo:
        return self._node.node_info()

    # -- SPARQL ---------------------------------------------------------------------------

    def check_read_query(self, sparql: str) -> tuple[str, list[str]]:
        """(form, variables) of a read-only query; anything else raises before any request."""
        return self._node.check_read_query(sparql)

    def query(self, sparql: str, *, row_limit: int = 500, timeout_s: float = 5.0) -> SparqlResult:
        kind, variables = self._node.check_read_query(sparql)
        if kind not in ("select", "construct"):
            raise DkgQueryError(
                f"{kind.upper()} is not answered by a remote DKG node (its query endpoint runs"
                " SELECT and CONSTRUCT only); ask with SELECT ... LIMIT 1 instead"
            )
        data = self._node.run_query(sparql, "SPARQL query", timeout_s)
        if kind == "construct":
            rows = construct_rows(data, row_limit + 1)
        else:
            rows = [decode_binding(b, variables) for b in select_bindings(data)[: row_limit + 1]]
        truncated = len(rows) > row_limit
        return SparqlResult(
            kind=kind,  # type: ignore[arg-type]
            variables=variables,
            rows=rows[:row_limit],
            truncated=truncated,
        )

    # -- reads ----------------------------------------------------------------------------

    def get_asset(self, ual: str) -> dict[str, Any] | None:
        sparql_iri(ual, "UAL")
        result = self._node.get_assertion(ual)
        assertion = result.get("assertion")
        if not assertion:
            return None  # the SDK's "Unable to find assertion on the network!"
        try:
            from pyld import jsonld

            compacted = jsonld.compact(assertion, {"@context": {"@vocab": SCHEMA}})
        except Exception as exc:  # pyld raises its own JsonLdError family
            raise DkgError(f"get {ual}: the node's assertion is not valid RDF: {exc}") from exc
        return as_tree(compacted)

    def get_metadata(self, ual: str) -> RemoteAssetMetadata | None:
        """Publisher and publish time from the node's metadata graph, best effort.

        The stake is the collection's locked TRAC read from the chain when an RPC is set;
        otherwise, or when that read fails, it is None and a note says why.
        """
        node = sparql_iri(ual, "UAL")
        parts = ual.split("/")
        collection = sparql_iri("/".join(parts[:3]), "UAL") if len(parts) > 3 else node
        rows = self._node.select(
            "SELECT ?p ?o WHERE {"
            f" {{ GRAPH <metadata:graph> {{ VALUES ?s {{ {node} {collection} }} ?s ?p ?o }} }}"
            " UNION { GRAPH ?g { ?x schema:name ?o }"
            f" VALUES ?g {{ <{ual}/public> <{ual}/1/public> }} BIND(schema:name AS ?p) }}"
            "} LIMIT 200",
            f"metadata of {ual}",
        )
        if not rows:
            return None
        values: dict[str, Value] = {}
        for row in rows:
            values.setdefault(str(row.get("p")), row.get("o"))
        publisher = str(values.get(DKG_NS + "publishedBy") or "")
        try:
            token = int(parts[-1])
        except ValueError:
            token = 0
        label = values.get(SCHEMA + "name")
        stake, stake_note = stake_with_note(self._stakes, ual)
        return RemoteAssetMetadata(
            ual=ual,
            tokenId=token,
            stakeAmount=stake,
            publisher=publisher.removeprefix("did:dkg:publisherKey/"),
            publishTime=str(values.get(DKG_NS + "publishTime") or ""),
            updateCount=0,
            label=str(label) if label is not None else None,
            notes=[stake_note, _NO_UPDATES],
        )

    def _label_rows(
        self, needles: list[str], limit: int, props: str = "name alternateName identifier"
    ) -> list[dict[str, Value]]:
        """Literal names (or identifiers) of DKG assets, those containing a needle if any."""
        tests = " || ".join(f"CONTAINS(LCASE(STR(?v)), {sparql_string(n)})" for n in needles)
        values = " ".join(f"schema:{p}" for p in props.split())
        return self._node.select(
            "SELECT ?g ?s ?p ?v ?type WHERE {"
            " GRAPH ?g { ?s ?p ?v . OPTIONAL { ?s rdf:type ?type } }"
            f" VALUES ?p {{ {values} }}"
            ' FILTER(isLiteral(?v) && STRSTARTS(STR(?g), "did:dkg:"))'
            + (f" FILTER({tests})" if tests else "")
            + f"}} LIMIT {int(limit)}",
            "DKG label lookup",
        )

    def find_related(self, text: str, *, limit: int = 10) -> list[RemoteRelatedAsset]:
        """Assets whose names or identifiers contain the text or its words, ranked locally.

        The node has no name index, so a bounded CONTAINS query fetches candidates and the
        embedded store's scorer (exact > name > token overlap > substring) ranks them.
        Stakes of the hits are read from the chain when an RPC is set (None otherwise, or
        when a read fails); equal scores then go to the better-staked asset.
        """
        words = [w for w in text.lower().split() if len(w) > 2]
        needles = list(dict.fromkeys([text.strip().lower(), *sorted(words, key=len)[-5:]]))
        needles = [n for n in needles if n]
        if not needles:
            return []
        index = build_index(label_entries(self._label_rows(needles, _LOOKUP_LIMIT)))
        # The index only knows the node's labels, so its stakes are placeholders: unknown.
        hits = [
            RemoteRelatedAsset(**{**RelatedAsset.from_match(m).model_dump(), "stakeAmount": None})
            for m in index.related(text, limit)
        ]
        if self._stakes is not None and hits:
            # Cached reads are free; new ones are only started within one RPC timeout of the
            # first, so a slow chain cannot stall a lookup for long.
            deadline = time.monotonic() + self._stakes.timeout_s
            for hit in hits:
                hit.stakeAmount, _ = self._stakes.read(hit.ual, fetch=time.monotonic() < deadline)
            hits.sort(key=lambda h: (-h.score, -(h.stakeAmount or 0.0)))  # stable otherwise
        return hits

    def find_duplicates(self, asset: dict[str, Any]) -> list[DuplicateMatch]:
        """Existing assets with the same identifier, or the same type family and name."""
        if not isinstance(asset, dict):
            raise DkgValidationError("asset must be a JSON object")
        probe = entry_from_asset("candidate", asset, 0.0)
        needles = [i.strip().lower() for i in probe.identifiers]
        needles += [normalise_name(n) for n in probe.names]
        needles = list(dict.fromkeys(n for n in needles if n))
        if not needles:
            return []
        index = build_index(label_entries(self._label_rows(needles, _LOOKUP_LIMIT)))
        return [DuplicateMatch(ual=u, reason=r) for u, r in index.duplicates(asset)]

    def gazetteer(self, *, max_age_s: float = 600.0) -> list[tuple[str, str, str]]:
        """(name, UAL, type) for mention matching, built lazily from one bounded query.

        A public node holds far more assets than a gazetteer should; the first
        GAZETTEER_LIMIT names (LIMIT 5000) are fetched once and reused for max_age_s.
        """
        with self._lock:
            if self._gazetteer is not None and time.monotonic() - self._built < max_age_s:
                return list(self._gazetteer)
        rows = self._label_rows([], GAZETTEER_LIMIT, "name alternateName")
        names = build_index(label_entries(rows)).gazetteer()
        with self._lock:
            self._gazetteer, self._built = names, time.monotonic()
        return list(names)

    # -- publish --------------------------------------------------------------------------

    def find_by_content_hash(self, digest: str) -> str | None:
        """The UAL of an asset we published with this content hash (its stamp), if any."""
        return self._publisher.find_by_content_hash(digest)

    def publish(self, asset: dict[str, Any], **ignored: Any) -> PublishResult:
        """Mint once per content with the configured wallet (`RemotePublisher.publish`)."""
        return self._publisher.publish(asset, **ignored)


__all__ = ["RemoteAssetMetadata", "RemoteDkg", "RemoteRelatedAsset"]
