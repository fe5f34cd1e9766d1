"""The node side of the remote DKG: HTTP requests to an ot-node v8 through the `dkg` SDK.

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
so `NodeClient` reads with a DKG built with `blockchain_provider=None`; only publishing
(`storage.dkg.remote_publish`) builds the real provider, lazily, from DKG_PRIVATE_KEY and
the blockchain settings.
"""

from __future__ import annotations

import functools
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from pydantic import BaseModel

from storage.dkg.interface import PREFIXES, DkgError, DkgQueryError
from storage.dkg.jsonld_rdf import Value
from storage.dkg.remote_answers import decode_binding, select_bindings
from storage.dkg.sparql_guard import SparqlRefused
from storage.dkg.sparql_sandbox import SparqlSandbox, run_read_query

# Prepended so queries written for the embedded store (schema:, dkg:, rdfs: ...) mean the
# same here; a query's own PREFIX lines come later and so still win.
_PROLOGUE = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in PREFIXES.items())
T = TypeVar("T")
# Parsing a query takes milliseconds; a query that takes longer is refused unsent.
CHECK_TIMEOUT_S = 5.0


class NodeInfo(BaseModel):
    version: str
    tripleStores: list[str] = []
    blockchains: list[str] = []


@functools.cache
def timed_node_provider_class() -> type:
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


class NodeClient:
    """The SDK's reading client for one node, with every failure turned into a DkgError.

    Every query is checked to be a read query (`check_read_query`) before it is sent.
    """

    def __init__(
        self,
        node_url: str,
        *,
        request_timeout_s: float,
        auth_token: str | None,
        poll_interval_s: float,
        max_polls: int,
    ) -> None:
        self._timeout_s = request_timeout_s
        # An evaluator with no store is only a parser here: every query is checked before
        # it is sent, away from this process (see `storage.dkg.sparql_sandbox`).
        self._parser = SparqlSandbox(None, processes=1)
        from dkg import DKG

        self.provider = timed_node_provider_class()(node_url, request_timeout_s, auth_token)
        # The SDK polls an operation max_number_of_retries times, frequency seconds apart.
        self.config = {"max_number_of_retries": max_polls, "frequency": poll_interval_s}
        self._reader = DKG(self.provider, None, self.config)  # type: ignore[arg-type]

    def call_sdk(self, what: str, request: Callable[[], T], timeout_s: float | None = None) -> T:
        """Run an SDK call; whatever goes wrong comes out as a DkgError saying what failed."""
        from dkg.exceptions import DKGException, NodeRequestError, OperationFailed
        from pyparsing import ParseBaseException

        try:
            with self.provider.timeout(timeout_s or self._timeout_s):
                return request()
        except DkgError:
            raise
        except OperationFailed as exc:
            detail = str(exc).removeprefix("Operation failed! ").rstrip(".")
            raise DkgError(f"{what}: the DKG node reports the operation FAILED: {detail}") from exc
        except NodeRequestError as exc:
            # The SDK's poll loop gives up with "Failed executing <fn> after N retries."
            if str(exc).startswith("Failed executing"):
                polls = self.config["max_number_of_retries"]
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

    def node_info(self) -> NodeInfo:
        raw = self.call_sdk("node info", lambda: self._reader.node.info)
        try:
            return NodeInfo.model_validate(raw)
        except ValueError as exc:
            raise DkgError(f"node info: unexpected answer {str(raw)[:200]}") from exc

    def check_read_query(self, sparql: str) -> tuple[str, list[str]]:
        """(form, variables) of a read-only query; anything else raises before any request.

        Same rules as the embedded store: SERVICE is refused (no outbound calls from a
        tool), and the text must parse as a SPARQL *query* with pyoxigraph, whose query
        parser does not accept updates at all. Nothing is evaluated but against an empty
        store in an evaluator process, and SELECT/CONSTRUCT results are never even iterated.
        """
        try:
            shape = run_read_query(
                self._parser,
                sparql,
                prefixes=PREFIXES,
                row_limit=0,
                timeout_s=CHECK_TIMEOUT_S,
                shape_only=True,
            )
        except SparqlRefused as exc:
            raise DkgQueryError(str(exc)) from exc
        return shape.kind, shape.variables

    def close(self) -> None:
        self._parser.close()

    def run_query(self, sparql: str, what: str, timeout_s: float | None = None) -> Any:
        """The node's raw answer to a query already checked, with the shared prefixes."""
        query = _PROLOGUE + sparql
        return self.call_sdk(what, lambda: self._reader.graph.query(query, {}), timeout_s)

    def select(self, sparql: str, what: str) -> list[dict[str, Value]]:
        """Our own SELECTs: built from checked IRIs and escaped strings, still parse-checked."""
        _, variables = self.check_read_query(sparql)
        data = self.run_query(sparql, what)
        return [decode_binding(b, variables) for b in select_bindings(data)]

    def get_assertion(self, ual: str) -> Any:
        """The node's `asset.get` answer for a UAL (its assertion, if found)."""
        return self.call_sdk(f"get {ual}", lambda: self._reader.asset.get(ual, {}))
