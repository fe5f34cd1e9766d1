"""RemoteDkg's stake reads from the chain (KnowledgeCollectionStorage.getTokenAmount),
against the stand-in ot-node and a stand-in JSON-RPC endpoint replaying
tests/fixtures/chain (tests/support/otnode.py): what web3 sends for getTokenAmount, what
RemoteDkg makes of the answer, and how a failed or slow endpoint is read around.
"""

from __future__ import annotations

import time

import pytest

from storage.dkg.remote import RemoteDkg
from tests.support.otnode import UAL, FakeNode, FakeRpc, free_port, with_rpc

# The SDK's rdflib 6 uses pyparsing names that pyparsing 3.3 deprecates: not ours to fix.
# web3 (loaded with the SDK's blockchain side) imports websockets.legacy: same story.
pytestmark = [
    pytest.mark.filterwarnings("ignore::pyparsing.PyparsingDeprecationWarning"),
    pytest.mark.filterwarnings("ignore:websockets.legacy is deprecated:DeprecationWarning"),
]


CONTRACT = "0xcdb28e93ed340ec10a71bba00a31dbfcf1bd5d37"
# keccak256("getTokenAmount(uint256)")[:4]; cross-checked against keccak in a test below.
GET_TOKEN_AMOUNT = "0xc2507ac1"
# The uint96 in tests/fixtures/chain/eth_call_get_token_amount.json: 1843.50... TRAC in wei.
LOCKED_WEI = 1843502117334650871296


def test_selector_is_get_token_amount_uint256() -> None:
    from eth_utils import keccak

    assert "0x" + keccak(text="getTokenAmount(uint256)")[:4].hex() == GET_TOKEN_AMOUNT


def test_metadata_reads_the_collections_locked_trac_with_one_eth_call(
    node: FakeNode, rpc: FakeRpc
) -> None:
    node.serve("direct_query_metadata")
    rpc.serve("eth_chainId", "net_version", "eth_call_get_token_amount")
    dkg = with_rpc(node, rpc)
    meta = dkg.get_metadata(UAL)

    assert meta is not None
    assert meta.stakeAmount == pytest.approx(LOCKED_WEI / 1e18, rel=1e-15)
    assert meta.stakeAmount == LOCKED_WEI / 10**18
    assert any("knowledge collection 396116" in note for note in meta.notes)
    assert not any("DKG_BLOCKCHAIN_RPC" in note for note in meta.notes)
    assert any("updateCount" in note for note in meta.notes)  # still unknown
    # What web3 sent: a read-only eth_call to the UAL's contract for collection 396116.
    (call,) = rpc.eth_calls()
    assert call["jsonrpc"] == "2.0"
    tx, block = call["params"]
    assert block == "latest"
    assert tx["to"].lower() == CONTRACT
    assert tx["to"] in (CONTRACT, "0xCdb28e93eD340ec10A71bba00a31DBFCf1BD5d37")  # checksummed
    assert tx["data"] == GET_TOKEN_AMOUNT + format(396116, "064x")
    assert "from" not in tx and "value" not in tx  # no wallet, nothing sent
    assert set(rpc.methods()) <= {"eth_chainId", "net_version", "eth_call"}

    # Cached per collection: another KA of the same collection asks the chain nothing.
    node.serve("direct_query_metadata")
    again = dkg.get_metadata(UAL.removesuffix("/1") + "/2")
    assert again is not None and again.stakeAmount == meta.stakeAmount
    assert len(rpc.eth_calls()) == 1


def test_rpc_from_the_environment_is_used(
    node: FakeNode, rpc: FakeRpc, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DKG_BLOCKCHAIN_RPC", rpc.url)
    node.serve("direct_query_metadata")
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    meta = RemoteDkg(node.url).get_metadata(UAL)
    assert meta is not None and meta.stakeAmount == LOCKED_WEI / 10**18


def test_find_related_reads_each_collections_stake_once(node: FakeNode, rpc: FakeRpc) -> None:
    node.serve("direct_query_labels")
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    hits = with_rpc(node, rpc).find_related("Albemarle", limit=5)

    assert hits[0].ual == UAL
    assert hits and all(h.stakeAmount == LOCKED_WEI / 10**18 for h in hits)
    asked = [c["params"][0]["data"] for c in rpc.eth_calls()]
    collections = {h.ual.split("/")[2] for h in hits}
    assert sorted(asked) == sorted(GET_TOKEN_AMOUNT + format(int(c), "064x") for c in collections)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize(
    ("answers", "says"),
    [
        (["http_500"], "the blockchain RPC answered HTTP 500"),
        (
            ["eth_chainId", "eth_call_rate_limited"],
            "returned an error: daily request count exceeded, request rate limited",
        ),
        (
            ["eth_chainId", "eth_call_no_contract", "eth_getCode_empty"],
            "no KnowledgeCollectionStorage contract",
        ),
        (["eth_chainId_base"], "the blockchain RPC serves chain id 8453, the UAL is on otp:20430"),
    ],
)
def test_failed_stake_read_leaves_none_and_a_note(
    node: FakeNode, rpc: FakeRpc, answers: list[str], says: str
) -> None:
    node.serve("direct_query_metadata")
    rpc.serve(*answers)
    meta = with_rpc(node, rpc).get_metadata(UAL)

    assert meta is not None
    assert meta.stakeAmount is None
    assert meta.publisher == "0x0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"  # the rest is there
    (note,) = [n for n in meta.notes if n.startswith("stakeAmount unknown")]
    assert says in note
    assert "\n" not in note
    assert rpc.url not in note  # RPC URLs often carry API keys
    if "chain id" in says:
        assert rpc.eth_calls() == []  # the wrong chain is not even asked


def test_unreachable_or_slow_rpc_costs_one_timeout_then_backs_off(
    node: FakeNode, rpc: FakeRpc
) -> None:
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    rpc.delay_s = 1.0
    dkg = with_rpc(node, rpc, rpc_timeout_s=0.2)
    node.serve("direct_query_metadata")
    started = time.monotonic()
    meta = dkg.get_metadata(UAL)
    assert meta is not None and meta.stakeAmount is None
    assert any("no answer from the blockchain RPC within 0.2s" in n for n in meta.notes)
    assert rpc.methods() == ["eth_chainId"]  # web3 does not retry it either

    # The RPC is not asked again for a while, for any collection; find_related stays quick.
    node.routes.clear()
    node.serve("direct_query_labels")
    hits = dkg.find_related("Albemarle", limit=5)
    assert hits and all(h.stakeAmount is None for h in hits)
    assert time.monotonic() - started < 0.9  # never waited for the 1s answers
    assert rpc.methods() == ["eth_chainId"]
    time.sleep(max(0.0, started + 1.1 - time.monotonic()))  # let the stand-in finish its answer

    dead = RemoteDkg(node.url, rpc_url=f"http://127.0.0.1:{free_port()}", rpc_timeout_s=1.0)
    node.routes.clear()
    node.serve("direct_query_metadata")
    meta = dead.get_metadata(UAL)
    assert meta is not None and meta.stakeAmount is None
    assert any("cannot reach the blockchain RPC" in n for n in meta.notes)


def test_ual_without_a_collection_has_unknown_stake_without_an_rpc_call(
    node: FakeNode, rpc: FakeRpc
) -> None:
    node.serve("direct_query_metadata")
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    meta = with_rpc(node, rpc).get_metadata("did:dkg:otp:20430/not-a-contract/7")
    assert meta is not None and meta.stakeAmount is None
    assert any("names no KnowledgeCollectionStorage address" in n for n in meta.notes)
    assert rpc.calls == []
