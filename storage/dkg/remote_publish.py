"""Publishing to a remote DKG: mint a Knowledge Asset with the configured wallet, once.

Each published asset carries its content hash (`urn:kminer:contentHash` on its root
node), and publishing looks that hash up by SPARQL first, so content already on the
node (a retry after a crash right after the mint, a scheduled re-mine) is answered with
its UAL instead of being minted again. The blockchain provider is built only here, on
the first publish: reads never need a wallet or an RPC (`storage.dkg.remote_node`).
"""

from __future__ import annotations

import re
import threading
from typing import Any

from mining.jsonld import JsonLdError, content_hash, validate_asset
from storage.dkg.interface import DkgError, DkgValidationError, PublishResult
from storage.dkg.remote_node import NodeClient

# Stamped into every asset we publish, so the node can tell us what we already minted.
CONTENT_HASH_IRI = "urn:kminer:contentHash"
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class RemotePublisher:
    """Mints assets paid and signed by one wallet, through a node's SDK client."""

    def __init__(
        self,
        node: NodeClient,
        *,
        blockchain: str,
        private_key: str | None,
        rpc_url: str | None,
        epochs: int,
    ) -> None:
        self._node = node
        self.blockchain = blockchain
        self._private_key = private_key
        self._rpc_url = rpc_url
        self._epochs = epochs
        self._writer: Any = None
        self._writer_lock = threading.Lock()

    def find_by_content_hash(self, digest: str) -> str | None:
        """The UAL of an asset we published with this content hash (its stamp), if any."""
        if not _SHA256.match(digest):
            return None
        rows = self._node.select(
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
            **self._node.config,
        }
        content = {"public": asset}
        result = self._node.call_sdk("publish", lambda: writer.asset.create(content, options))
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
                self._writer = self._node.call_sdk(what, self._connect_writer)
            return self._writer

    def _connect_writer(self) -> Any:
        from dkg import DKG
        from dkg.providers import BlockchainProvider

        # The constructor asks the Hub contract for addresses, so this needs a live RPC.
        # It also runs load_dotenv() and reads PRIVATE_KEY; set_account makes the key ours.
        chain = BlockchainProvider(self.blockchain, rpc_uri=self._rpc_url)
        chain.set_account(self._private_key)
        return DKG(self._node.provider, chain, self._node.config)
