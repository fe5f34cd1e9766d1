"""The remote DKG: a real OriginTrail node (ot-node v8) through the official `dkg` SDK.

What the SDK (dkg 8.1.x) sends, read from its source:
  node.info    GET  /v1/info                        -> {version, tripleStores, blockchains}
  graph.query  POST /v1/direct-query {query, type, repository, paranetUAL}
               answered synchronously: {data: [binding, ...]} for SELECT (comunica's simple
               JSON: literals as '"lex"^^datatype' / '"lex"@lang', IRIs bare), or {data:
               "<N-Quads>"} for CONSTRUCT. The node runs no other query form.
  asset.get    POST /v1/get {id, contentType, includeMetadata, hashFunctionId, paranetUAL,
               subjectUAL} -> 202 {operationId}, then GET /v1/get/<operationId> until
               status COMPLETED ({data: {assertion: {public: [N-Quads lines]}}}) or FAILED
               ({data: {errorType, errorMessage}}).

Reads need no wallet. `dkg.DKG(node_provider, blockchain_provider)` is the SDK's client, but
its BlockchainProvider connects to the chain's RPC in its constructor (it asks the Hub
contract for every contract address), so a read-only miner could not even start without a
live RPC. Node reads (node.info, graph.query, asset.get) never touch the blockchain provider,
so readers get a DKG built with `blockchain_provider=None`; only `publish` builds the real
provider, lazily, from DKG_PRIVATE_KEY and the blockchain settings.

Stake is not in the node's metadata graph; it lives on chain. A v8 UAL names its collection's
storage contract, did:dkg:<chain>/<KnowledgeCollectionStorage address>/<collection id>[/<KA id>],
and `getTokenAmount(collection id) -> uint96` is the TRAC (wei, 18 decimals) locked for the
whole collection. With DKG_BLOCKCHAIN_RPC set, that is read with a plain eth_call (web3, the
SDK's own ABI, no wallet) under a short timeout and cached per collection; without it, or when
the read fails, stakeAmount is None (unknown, never 0.0) and a note says why.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import os
import re
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from pydantic import BaseModel
from pyoxigraph import Literal, NamedNode, RdfFormat, Store, parse

from mining.names import normalise_name
from storage.dkg.embedded import (
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
from storage.dkg.jsonld_rdf import (
    SCHEMA,
    JsonLdError,
    Value,
    content_hash,
    term_value,
    validate_asset,
)
from storage.dkg.label_index import IndexEntry, build_index, entry_from_asset
from storage.dkg.sparql_guard import (
    TRIPLE_COLUMNS,
    SparqlRefused,
    parse_read_query,
    result_shape,
)

DEFAULT_BLOCKCHAIN = "otp:20430"
GAZETTEER_LIMIT = 5000
_LOOKUP_LIMIT = 1000
# Stamped into every asset we publish, so the node can tell us what we already minted.
CONTENT_HASH_IRI = "urn:kminer:contentHash"
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_NO_STAKE = (
    "the node does not report stake and no blockchain RPC is set (DKG_BLOCKCHAIN_RPC);"
    " stakeAmount None means unknown, not zero"
)
_STAKE_TTL_S = 300.0  # a collection's locked TRAC changes rarely (on update or extension)
_FAILURE_TTL_S = 30.0  # how long a failed read (or an unreachable RPC) is not retried
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
_NO_UPDATES = "the node does not report an update count; updateCount 0 means unknown"
# Prepended so queries written for the embedded store (schema:, dkg:, rdfs: ...) mean the
# same here; a query's own PREFIX lines come later and so still win.
_PROLOGUE = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in PREFIXES.items())
T = TypeVar("T")


class NodeInfo(BaseModel):
    version: str
    tripleStores: list[str] = []
    blockchains: list[str] = []


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


@functools.cache
def _provider_class() -> type:
    # The SDK pulls in web3 and pandas (seconds to import); only remote setups pay for that.
    # Its pinned rdflib 6 calls pyparsing 3.3's deprecated names on every graph.query;
    # those warnings say nothing about this service, so they are silenced here only.
    from pyparsing import PyparsingDeprecationWarning

    warnings.filterwarnings("ignore", category=PyparsingDeprecationWarning)
    import requests
    from dkg.dataclasses import HTTPRequestMethod, NodeResponseDict
    from dkg.exceptions import NodeRequestError
    from dkg.providers import NodeHTTPProvider

    class TimedNodeProvider(NodeHTTPProvider):
        """The SDK's node HTTP provider with a timeout and the node's own error text.

        The stock provider sends requests without a timeout (a stuck node would hang an
        activity thread forever) and drops the response body of HTTP errors, which is
        where ot-node puts its explanation.
        """

        def __init__(self, url: str, timeout_s: float, auth_token: str | None) -> None:
            super().__init__(url, "v1", auth_token)
            self.default_timeout_s = timeout_s
            self._local = threading.local()

        @contextmanager
        def timeout(self, seconds: float) -> Iterator[None]:
            # Per thread: activities run concurrently in worker threads on one client.
            self._local.seconds = seconds
            try:
                yield
            finally:
                self._local.seconds = None

        def make_request(
            self,
            method: Any,
            path: str,
            params: dict[str, Any] | None = None,
            data: dict[str, Any] | None = None,
        ) -> Any:
            url = f"{self.url}/{path}"
            timeout = getattr(self._local, "seconds", None) or self.default_timeout_s
            try:
                if method == HTTPRequestMethod.GET:
                    resp = requests.get(
                        url, params=params or {}, headers=self.headers, timeout=timeout
                    )
                else:
                    resp = requests.post(
                        url, json=data or {}, headers=self.headers, timeout=timeout
                    )
            except requests.Timeout as exc:
                raise NodeRequestError(f"no answer from {url} within {timeout:g}s") from exc
            except requests.RequestException as exc:
                raise NodeRequestError(f"cannot reach {url}: {exc}") from exc
            if resp.status_code >= 400:
                raise NodeRequestError(
                    f"{method.name} {url} answered HTTP {resp.status_code}: {resp.text[:300]}"
                )
            try:
                return NodeResponseDict(resp.json())
            except ValueError as exc:
                raise NodeRequestError(f"{url} answered with something not JSON") from exc

    return TimedNodeProvider


def _collection(ual: str) -> tuple[str, str, int] | None:
    """(chain, storage contract address, collection id) of a v8 UAL, or None."""
    parts = ual.removeprefix("did:dkg:").split("/")
    if len(parts) < 3 or not _ADDRESS.fullmatch(parts[1]) or not parts[2].isdigit():
        return None
    return parts[0], parts[1], int(parts[2])


def _chain_id(chain: str) -> int | None:
    """20430 for 'otp:20430' (the UAL's chain names its EVM chain id last)."""
    tail = chain.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None


class _StakeReader:
    """KnowledgeCollectionStorage.getTokenAmount over a read-only JSON-RPC, cached.

    Failures never raise: a read gives (TRAC, None) or (None, one-line reason). A transport
    failure (timeout, refused connection, HTTP error) marks the whole RPC as down for
    _FAILURE_TTL_S, so a dead RPC costs one timeout, not one per asset.
    """

    def __init__(self, rpc_url: str, timeout_s: float, ttl_s: float) -> None:
        self._url = rpc_url
        self.timeout_s = timeout_s
        self._ttl_s = ttl_s
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str, int], tuple[float, float | None, str | None]] = {}
        self._down: tuple[float, str] | None = None  # (until, why)
        self._chain: int | None = None
        self._w3: Any = None

    def read(self, ual: str, *, fetch: bool = True) -> tuple[float | None, str | None]:
        """(TRAC, None) or (None, why); with fetch=False only the cache is consulted."""
        where = _collection(ual)
        if where is None:
            return None, (
                "stakeAmount unknown: the UAL names no KnowledgeCollectionStorage address and"
                " collection id (did:dkg:<chain>/<contract>/<collection id>)"
            )
        now = time.monotonic()
        key = (where[0], where[1].lower(), where[2])
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None and cached[0] > now:
                return cached[1], cached[2]
            down = self._down if self._down and self._down[0] > now else None
        if down is not None:
            return None, f"{down[1]} (the RPC is left alone for {_FAILURE_TTL_S:g}s after that)"
        if not fetch:
            return None, "stakeAmount unknown: not read (the lookup's time for chain reads ran out)"
        amount, why = self._fetch(*where)
        with self._lock:
            if len(self._cache) > 4096:  # a long-running service: drop what has expired
                self._cache = {k: v for k, v in self._cache.items() if v[0] > now}
            ttl = self._ttl_s if why is None else _FAILURE_TTL_S
            self._cache[key] = (time.monotonic() + ttl, amount, why)
        return amount, why

    def _fetch(self, chain: str, address: str, collection: int) -> tuple[float | None, str | None]:
        what = f"reading KnowledgeCollectionStorage.getTokenAmount({collection}) on chain {chain}"
        try:
            w3 = self._web3()
            expected = _chain_id(chain)
            if expected is not None:
                if self._chain is None:
                    self._chain = int(w3.eth.chain_id)
                if self._chain != expected:
                    return None, (
                        f"stakeAmount unknown: the blockchain RPC serves chain id {self._chain},"
                        f" the UAL is on {chain}"
                    )
            contract = w3.eth.contract(address=w3.to_checksum_address(address), abi=_abi())
            wei = contract.functions.getTokenAmount(collection).call()
        except Exception as exc:
            transport, reason = self._reason(exc)
            why = " ".join(f"stakeAmount unknown: {what} failed: {reason}".split())
            if transport:
                with self._lock:
                    self._down = (time.monotonic() + _FAILURE_TTL_S, why)
            return None, why
        return int(wei) / 10**18, None

    def _reason(self, exc: Exception) -> tuple[bool, str]:
        """(is a transport failure, why) with the RPC URL (often holding an API key) left out."""
        import requests
        from web3.exceptions import BadFunctionCallOutput, ContractLogicError, Web3RPCError

        if isinstance(exc, requests.Timeout):
            return True, f"no answer from the blockchain RPC within {self.timeout_s:g}s"
        if isinstance(exc, requests.HTTPError):
            status = exc.response.status_code if exc.response is not None else "?"
            return True, f"the blockchain RPC answered HTTP {status}"
        if isinstance(exc, requests.RequestException):
            return True, f"cannot reach the blockchain RPC ({type(exc).__name__})"
        if isinstance(exc, ContractLogicError):
            return False, f"the contract call reverted ({str(exc.message or 'no reason')[:200]})"
        if isinstance(exc, Web3RPCError):
            error = (exc.rpc_response or {}).get("error")
            detail = error.get("message") if isinstance(error, dict) else None
            return False, f"the blockchain RPC returned an error: {str(detail or exc)[:200]}"
        if isinstance(exc, BadFunctionCallOutput):
            return False, "no KnowledgeCollectionStorage contract answered at that address"
        text = str(exc).replace(self._url, "<rpc>")[:200]
        return False, f"{type(exc).__name__}: {text}"

    def _web3(self) -> Any:
        with self._lock:
            if self._w3 is None:
                from web3 import HTTPProvider, Web3

                provider = HTTPProvider(
                    self._url,
                    request_kwargs={"timeout": self.timeout_s},
                    # web3 would retry an eth_call five times with backoff on any HTTP error;
                    # here a failed read is simply unknown stake, reported at once.
                    exception_retry_configuration=None,
                )
                w3 = Web3(provider)
                # Its validation middleware asks eth_chainId before every eth_call; the chain
                # is checked once in _fetch instead.
                w3.middleware_onion.remove("validation")
                self._w3 = w3
            return self._w3


@functools.cache
def _abi() -> list[dict[str, Any]]:
    """The getTokenAmount entry of the KnowledgeCollectionStorage ABI the SDK ships."""
    path = importlib.resources.files("dkg") / "data/interfaces/KnowledgeCollectionStorage.json"
    abi = json.loads(path.read_text(encoding="utf-8"))
    return [item for item in abi if item.get("name") == "getTokenAmount"]


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
        stake_cache_s: float = _STAKE_TTL_S,
    ) -> None:
        url = node_url or os.environ.get("DKG_NODE_URL")
        if not url:
            raise DkgError("a remote DKG needs a node URL (DKG_NODE_URL)")
        self.node_url = url.rstrip("/")
        self.blockchain = blockchain or os.environ.get("DKG_BLOCKCHAIN") or DEFAULT_BLOCKCHAIN
        self._private_key = private_key or os.environ.get("DKG_PRIVATE_KEY") or None
        self._rpc_url = rpc_url or os.environ.get("DKG_BLOCKCHAIN_RPC") or None
        self._timeout_s = request_timeout_s
        self._epochs = epochs
        self._lock = threading.Lock()
        self._gazetteer: list[tuple[str, str, str]] | None = None
        self._built = 0.0
        # An empty store is only a parser here: every query is checked before it is sent.
        self._parser = Store()
        from dkg import DKG

        token = auth_token or os.environ.get("DKG_NODE_AUTH_TOKEN") or None
        self._provider = _provider_class()(self.node_url, request_timeout_s, token)
        # The SDK polls an operation max_number_of_retries times, frequency seconds apart.
        self._config = {"max_number_of_retries": max_polls, "frequency": poll_interval_s}
        self._reader = DKG(self._provider, None, self._config)  # type: ignore[arg-type]
        self._writer: Any = None
        self._writer_lock = threading.Lock()
        # Stake reads need only the RPC (no wallet); without one every stake is unknown.
        self._stakes = (
            _StakeReader(self._rpc_url, rpc_timeout_s, stake_cache_s) if self._rpc_url else None
        )

    def close(self) -> None:
        """Nothing stays open: each SDK request is its own HTTP exchange."""

    # -- errors ---------------------------------------------------------------------------

    def _sdk(self, what: str, call: Callable[[], T], timeout_s: float | None = None) -> T:
        """Run an SDK call; whatever goes wrong comes out as a DkgError saying what failed."""
        from dkg.exceptions import DKGException, NodeRequestError, OperationFailed
        from pyparsing import ParseBaseException

        try:
            with self._provider.timeout(timeout_s or self._timeout_s):
                return call()
        except DkgError:
            raise
        except OperationFailed as exc:
            detail = str(exc).removeprefix("Operation failed! ").rstrip(".")
            raise DkgError(f"{what}: the DKG node reports the operation FAILED: {detail}") from exc
        except NodeRequestError as exc:
            # The SDK's poll loop gives up with "Failed executing <fn> after N retries."
            if str(exc).startswith("Failed executing"):
                polls = self._config["max_number_of_retries"]
                raise DkgError(
                    f"{what}: the node's operation was not done after {polls} polls"
                ) from exc
            raise DkgError(f"{what}: DKG node request failed: {exc}") from exc
        except ParseBaseException as exc:  # graph.query re-parses with rdflib to get the form
            raise DkgQueryError(
                f"{what}: the SDK's SPARQL parser rejects the query: {exc}"
            ) from exc
        except DKGException as exc:
            raise DkgError(f"{what}: DKG SDK error ({type(exc).__name__}): {exc}") from exc
        except Exception as exc:  # the SDK also leaks pyld, rdflib and web3 errors
            raise DkgError(f"{what}: unexpected {type(exc).__name__}: {exc}") from exc

    # -- node -----------------------------------------------------------------------------

    def node_info(self) -> NodeInfo:
        raw = self._sdk("node info", lambda: self._reader.node.info)
        try:
            return NodeInfo.model_validate(raw)
        except ValueError as exc:
            raise DkgError(f"node info: unexpected answer {str(raw)[:200]}") from exc

    # -- SPARQL ---------------------------------------------------------------------------

    def check_read_query(self, sparql: str) -> tuple[str, list[str]]:
        """(form, variables) of a read-only query; anything else raises before any request.

        Same rules as the embedded store: SERVICE is refused (no outbound calls from a
        tool), and the text must parse as a SPARQL *query* with pyoxigraph, whose query
        parser does not accept updates at all. Nothing is evaluated but against an empty
        store, and SELECT/CONSTRUCT results are never even iterated.
        """
        try:
            parsed = parse_read_query(self._parser, sparql, PREFIXES)
        except SparqlRefused as exc:
            raise DkgQueryError(str(exc)) from exc
        return result_shape(parsed, sparql)

    def query(self, sparql: str, *, row_limit: int = 500, timeout_s: float = 5.0) -> SparqlResult:
        kind, variables = self.check_read_query(sparql)
        if kind not in ("select", "construct"):
            raise DkgQueryError(
                f"{kind.upper()} is not answered by a remote DKG node (its query endpoint runs"
                " SELECT and CONSTRUCT only); ask with SELECT ... LIMIT 1 instead"
            )
        data = self._sdk(
            "SPARQL query",
            lambda: self._reader.graph.query(_PROLOGUE + sparql, {}),
            timeout_s,
        )
        if kind == "construct":
            rows = _triples(data, row_limit + 1)
        else:
            rows = [_decode_binding(b, variables) for b in _bindings(data)[: row_limit + 1]]
        truncated = len(rows) > row_limit
        return SparqlResult(
            kind=kind,  # type: ignore[arg-type]
            variables=variables,
            rows=rows[:row_limit],
            truncated=truncated,
        )

    def _select(self, sparql: str, what: str) -> list[dict[str, Value]]:
        """Our own SELECTs: built from checked IRIs and escaped strings, still parse-checked."""
        _, variables = self.check_read_query(sparql)
        data = self._sdk(what, lambda: self._reader.graph.query(_PROLOGUE + sparql, {}))
        return [_decode_binding(b, variables) for b in _bindings(data)]

    # -- reads ----------------------------------------------------------------------------

    def get_asset(self, ual: str) -> dict[str, Any] | None:
        _iri(ual, "UAL")
        result = self._sdk(f"get {ual}", lambda: self._reader.asset.get(ual, {}))
        assertion = result.get("assertion")
        if not assertion:
            return None  # the SDK's "Unable to find assertion on the network!"
        try:
            from pyld import jsonld

            compacted = jsonld.compact(assertion, {"@context": {"@vocab": SCHEMA}})
        except Exception as exc:  # pyld raises its own JsonLdError family
            raise DkgError(f"get {ual}: the node's assertion is not valid RDF: {exc}") from exc
        return _as_tree(compacted)

    def get_metadata(self, ual: str) -> RemoteAssetMetadata | None:
        """Publisher and publish time from the node's metadata graph, best effort.

        The stake is the collection's locked TRAC read from the chain when an RPC is set;
        otherwise, or when that read fails, it is None and a note says why.
        """
        node = _iri(ual, "UAL")
        parts = ual.split("/")
        collection = _iri("/".join(parts[:3]), "UAL") if len(parts) > 3 else node
        rows = self._select(
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
        stake, stake_note = self._stake(ual)
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

    def _stake(self, ual: str) -> tuple[float | None, str]:
        """(TRAC locked for the UAL's collection or None, a note on where it came from)."""
        if self._stakes is None:
            return None, _NO_STAKE
        stake, why = self._stakes.read(ual)
        if stake is None:
            return None, why or "stakeAmount unknown"
        where = _collection(ual)
        collection = where[2] if where else "?"
        return stake, (
            f"stakeAmount is the TRAC locked on chain for the whole knowledge collection"
            f" {collection} (KnowledgeCollectionStorage.getTokenAmount)"
        )

    def _label_rows(
        self, needles: list[str], limit: int, props: str = "name alternateName identifier"
    ) -> list[dict[str, Value]]:
        """Literal names (or identifiers) of DKG assets, those containing a needle if any."""
        tests = " || ".join(f"CONTAINS(LCASE(STR(?v)), {_string(n)})" for n in needles)
        values = " ".join(f"schema:{p}" for p in props.split())
        return self._select(
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
        index = build_index(_entries(self._label_rows(needles, _LOOKUP_LIMIT)))
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
        index = build_index(_entries(self._label_rows(needles, _LOOKUP_LIMIT)))
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
        names = build_index(_entries(rows)).gazetteer()
        with self._lock:
            self._gazetteer, self._built = names, time.monotonic()
        return list(names)

    # -- publish --------------------------------------------------------------------------

    def find_by_content_hash(self, digest: str) -> str | None:
        """The UAL of an asset we published with this content hash (its stamp), if any."""
        if not _SHA256.match(digest):
            return None
        rows = self._select(
            f'SELECT ?g WHERE {{ GRAPH ?g {{ ?s <{CONTENT_HASH_IRI}> "{digest}" }}'
            ' FILTER(STRSTARTS(STR(?g), "did:dkg:")) } LIMIT 1',
            "content-hash lookup",
        )
        graph = str(rows[0].get("g") or "") if rows else ""
        return graph.removesuffix("/public").removesuffix("/private") or None

    def publish(self, asset: dict[str, Any], **_: Any) -> PublishResult:
        """Mint a Knowledge Asset paid and signed by the configured wallet, once per content.

        The asset carries its content hash (`urn:kminer:contentHash` on the root node) and
        is looked up by it first: content already on the node is answered with its UAL,
        not minted again (a retry after a crash between the mint and the ledger write, or a
        scheduled run finding the same facts). `publisher`, `stake_amount` and `domain` are
        what the embedded store records; on a real DKG the wallet is the publisher and the
        chain sets the cost, so they are ignored.
        """
        if not self._private_key:
            raise DkgError(
                "publishing to a remote DKG needs DKG_PRIVATE_KEY and blockchain settings"
            )
        try:
            validate_asset(asset)
        except JsonLdError as exc:
            raise DkgValidationError(str(exc)) from exc
        digest = content_hash(asset)
        known = self.find_by_content_hash(digest)
        if known:
            return PublishResult(ual=known, created=False)
        asset = {**asset, CONTENT_HASH_IRI: digest}
        writer = self._writer_client()
        options = {
            "epochs_num": self._epochs,
            "minimum_number_of_node_replications": 1,
            **self._config,
        }
        result = self._sdk("publish", lambda: writer.asset.create({"public": asset}, options))
        ual = result.get("UAL") if isinstance(result, dict) else None
        if not ual:
            status = (result or {}).get("operation", {}).get("publish", {})
            raise DkgError(f"publish did not complete on the DKG node: {status}")
        return PublishResult(ual=str(ual), created=True)

    def _writer_client(self) -> Any:
        # Its own lock: connecting can take seconds and must not stall gazetteer readers.
        with self._writer_lock:
            if self._writer is None:
                rpc = self._rpc_url or "the SDK's default RPC"
                what = f"publish: cannot connect to blockchain {self.blockchain} via {rpc}"
                self._writer = self._sdk(what, self._connect_writer)
            return self._writer

    def _connect_writer(self) -> Any:
        from dkg import DKG
        from dkg.providers import BlockchainProvider

        # The constructor asks the Hub contract for addresses, so this needs a live RPC.
        # It also runs load_dotenv() and reads PRIVATE_KEY; set_account makes the key ours.
        chain = BlockchainProvider(self.blockchain, rpc_uri=self._rpc_url)
        chain.set_account(self._private_key)
        return DKG(self._provider, chain, self._config)


# -- helpers -------------------------------------------------------------------------------


def _iri(value: str, what: str) -> str:
    """`<value>` for a SPARQL text, after pyoxigraph has checked it really is an IRI."""
    if not isinstance(value, str) or not value.startswith("did:dkg:"):
        raise DkgValidationError(f"{what} must look like did:dkg:<chain>/<contract>/<id>")
    try:
        return str(NamedNode(value))
    except ValueError as exc:
        raise DkgValidationError(f"{what} is not a valid IRI: {value!r}") from exc


def _string(text: str) -> str:
    # JSON escapes (\" \\ \n \uXXXX) are all valid SPARQL string escapes.
    return json.dumps(text, ensure_ascii=False)


def _bindings(data: Any) -> list[dict[str, Any]]:
    """Rows of a SELECT answer: ot-node's plain list, or a SPARQL 1.1 JSON results object."""
    if isinstance(data, dict):
        data = data.get("results", {}).get("bindings", [])
    if not isinstance(data, list):
        raise DkgError(f"SPARQL query: unexpected answer from the node: {str(data)[:200]}")
    return [b for b in data if isinstance(b, dict)]


def _decode_binding(binding: dict[str, Any], variables: list[str]) -> dict[str, Value]:
    names = variables or list(binding)
    return {name: _term(binding.get(name)) for name in names}


def _term(raw: Any) -> Value:
    """One bound value: comunica's '"lex"^^dt' / '"lex"@lang' / IRI strings, or JSON terms."""
    if raw is None:
        return None
    if isinstance(raw, dict):  # SPARQL 1.1 JSON: {"type", "value", "datatype", "xml:lang"}
        if raw.get("type") in ("literal", "typed-literal") and raw.get("datatype"):
            return term_value(Literal(str(raw["value"]), datatype=NamedNode(raw["datatype"])))
        return raw.get("value")
    text = str(raw)
    if not text.startswith('"'):
        return text
    # rdf-string does not escape the lexical form, so its end is the last quote.
    end = text.rfind('"')
    lexical, suffix = text[1:end], text[end + 1 :]
    if suffix.startswith("^^"):
        try:
            return term_value(Literal(lexical, datatype=NamedNode(suffix[2:])))
        except ValueError:
            return lexical
    return lexical


def _triples(data: Any, cap: int) -> list[dict[str, Value]]:
    if not isinstance(data, str):
        raise DkgError(f"SPARQL query: expected N-Quads from the node, got {str(data)[:200]}")
    rows: list[dict[str, Value]] = []
    try:
        for quad in parse(data.encode(), format=RdfFormat.N_QUADS):
            if len(rows) >= cap:
                break
            terms = (quad.subject, quad.predicate, quad.object)
            rows.append(dict(zip(TRIPLE_COLUMNS, map(term_value, terms), strict=True)))
    except SyntaxError as exc:
        raise DkgError(f"SPARQL query: the node's N-Quads do not parse: {exc}") from exc
    return rows


def _entries(rows: list[dict[str, Value]]) -> Iterator[IndexEntry]:
    """Index entries from label rows: one pseudo-asset per UAL (its KA named graph)."""
    assets: dict[str, dict[str, Any]] = {}
    for row in rows:
        graph, subject = str(row.get("g") or ""), str(row.get("s") or "")
        ual = graph.removesuffix("/public").removesuffix("/private")
        doc = assets.setdefault(ual, {"subject": subject, "@type": []})
        # A KA graph can hold nested nodes too (addresses...); keep to its first subject.
        if doc["subject"] != subject or row.get("v") is None:
            continue
        prop = str(row.get("p")).removeprefix(SCHEMA)
        doc.setdefault(prop, [])
        if row["v"] not in doc[prop]:
            doc[prop].append(str(row["v"]))
        kind = row.get("type")
        if kind and kind not in doc["@type"]:
            doc["@type"].append(str(kind))
    for ual, doc in assets.items():
        yield entry_from_asset(ual, doc, 0.0)


def _as_tree(doc: dict[str, Any]) -> dict[str, Any]:
    """Nest nodes referenced once (blank and SDK-minted uuid: nodes) into their parent.

    The node stores flat triples, so JSON-LD from them is a flat @graph; the miner's
    tools read assets as one nested object, the way they were published.
    """
    context = doc.get("@context")
    nodes = doc.get("@graph")
    if not isinstance(nodes, list):
        return doc
    by_id = {n.get("@id"): n for n in nodes if isinstance(n, dict)}
    refs: dict[str, int] = {}

    def count(value: Any) -> None:
        if isinstance(value, dict):
            if set(value) == {"@id"}:
                refs[value["@id"]] = refs.get(value["@id"], 0) + 1
            for item in value.values():
                count(item)
        elif isinstance(value, list):
            for item in value:
                count(item)

    count(nodes)
    inlinable = {
        key
        for key, n in refs.items()
        if n == 1 and key in by_id and str(key).startswith(("_:", "uuid:"))
    }

    def inline(value: Any, seen: frozenset[str]) -> Any:
        if isinstance(value, list):
            return [inline(v, seen) for v in value]
        if not isinstance(value, dict):
            return value
        key = value.get("@id")
        if set(value) == {"@id"} and key in inlinable and key not in seen:
            inner = {k: v for k, v in by_id[key].items() if k != "@id"}
            return inline(inner, seen | {key})
        return {k: inline(v, seen) for k, v in value.items()}

    roots = [inline(n, frozenset()) for k, n in by_id.items() if k not in inlinable]
    if len(roots) == 1:
        return {"@context": context, **roots[0]}
    return {"@context": context, "@graph": roots}


__all__ = ["NodeInfo", "RemoteAssetMetadata", "RemoteDkg", "RemoteRelatedAsset"]
