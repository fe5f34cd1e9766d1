"""The stake of a remote Knowledge Asset, read from the chain (a node does not report it).

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
import re
import threading
import time
from typing import Any

STAKE_TTL_S = 300.0  # a collection's locked TRAC changes rarely (on update or extension)
_FAILURE_TTL_S = 30.0  # how long a failed read (or an unreachable RPC) is not retried
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
NO_STAKE = (
    "the node does not report stake and no blockchain RPC is set (DKG_BLOCKCHAIN_RPC);"
    " stakeAmount None means unknown, not zero"
)


def collection_of(ual: str) -> tuple[str, str, int] | None:
    """(chain, storage contract address, collection id) of a v8 UAL, or None."""
    parts = ual.removeprefix("did:dkg:").split("/")
    if len(parts) < 3 or not _ADDRESS.fullmatch(parts[1]) or not parts[2].isdigit():
        return None
    return parts[0], parts[1], int(parts[2])


def _chain_id(chain: str) -> int | None:
    """20430 for 'otp:20430' (the UAL's chain names its EVM chain id last)."""
    tail = chain.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None


class StakeReader:
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
        where = collection_of(ual)
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


def stake_with_note(stakes: StakeReader | None, ual: str) -> tuple[float | None, str]:
    """(TRAC locked for the UAL's collection or None, a note on where it came from)."""
    if stakes is None:
        return None, NO_STAKE
    stake, why = stakes.read(ual)
    if stake is None:
        return None, why or "stakeAmount unknown"
    where = collection_of(ual)
    collection = where[2] if where else "?"
    return stake, (
        f"stakeAmount is the TRAC locked on chain for the whole knowledge collection"
        f" {collection} (KnowledgeCollectionStorage.getTokenAmount)"
    )
