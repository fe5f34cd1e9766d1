"""The `kminer` CLI and the Temporal CLI against real runs."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from contracts.run import MiningRequest
from kminer.config import Settings
from kminer.devserver import temporal_binary
from kminer.stack import Stack
from storage.dkg.embedded import EmbeddedDkg
from temporal_client.runs import start_run
from tests.support.hostile_sparql import CRASHING, ENDLESS, ORDINARY
from tests.support.paths import ROOT
from tests.support.processes import kminer
from tests.support.runs import QUESTION, wait_for_review
from workflows.mining import MiningWorkflow


def test_mine_json_prints_the_response_with_linked_scored_candidates(settings: Settings) -> None:
    done = kminer(
        settings,
        "mine",
        QUESTION,
        "--tag",
        "supply_chain",
        "--tag",
        "general_risk",
        "--auto-approve",
        "--json",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    response = json.loads(done.stdout)
    assert response["threadId"] == "general_risk__supply_chain"
    assert response["candidateAssets"], "at least one candidate"
    dkg = EmbeddedDkg(settings.dkg_dir)
    try:
        for asset in response["candidateAssets"]:
            assert asset["@context"] and asset["@type"]
            for ual in asset.get("linkedAssets", []):
                assert dkg.get_asset(ual) is not None, f"{ual} is not in the DKG"
            signals = asset["trustSignals"]
            assert {"confidence", "linkedToHighStakeAssets", "averageLinkedStake", "relevance",
                    "independentSources", "stakeKnown"} <= set(signals)  # fmt: skip
            assert 0.0 <= signals["confidence"] <= 1.0
            assert asset["provenance"]["evidence"], asset["name"]
            if asset["candidateKind"] == "claim":
                assert asset["linkedAssets"], asset["name"]
                assert signals["relevance"] >= 0.45, "nothing below the relevance floor"
    finally:
        dkg.close()
    accepted = [a for a in response["candidateAssets"] if a["reviewStatus"] == "published"]
    assert accepted, "the demo question publishes at least one corroborated claim"
    sentences = response["answer"]["sentences"]
    cited = {c for s in sentences if not s["alreadyInDkg"] and not s["hedged"]
             for c in s["candidateIds"]}  # fmt: skip
    assert response["answer"]["evidenceFound"] and cited <= {a["candidateId"] for a in accepted}
    # Hedged sentences report claims validation proposed to a reviewer, never published.
    proposed = {c["candidateId"] for c in response["candidateAssets"]
                if (c.get("trustSignals") or {}).get("proposed")}  # fmt: skip
    reported = {c for s in sentences if s["hedged"] for c in s["candidateIds"]}
    assert reported <= proposed
    assert not reported & {p["candidateId"] for p in response["publishedAssets"]}
    assert sorted(response["memoryWrites"]) == sorted(
        f"/memories/knowledge/{tag}/{note}.md"
        for tag in ("general_risk", "supply_chain")
        for note in ("discovery-notes", "schema-notes", "validation-rules")
    )
    assert "[DISCOVERY]" in done.stderr and "[VALIDATION]" in done.stderr, "live progress"


def test_a_bad_tag_exits_2_with_one_line(settings: Settings) -> None:
    done = kminer(settings, "mine", QUESTION, "--tag", "supply-chain", timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "invalid domain tag 'supply-chain'" in lines[0]
    assert not done.stdout


async def temporal_cli(address: str, *args: str) -> Any:
    # Async: the worker under test runs on this same event loop.
    proc = await asyncio.create_subprocess_exec(
        str(temporal_binary()),
        "workflow",
        *args,
        "--address",
        address,
        "-o",
        "json",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    return json.loads(out) if out.strip() else None


async def test_temporal_cli_can_query_and_signal_a_run(stack: Stack, settings: Settings) -> None:
    request = MiningRequest(query=QUESTION, domainTags=["supply_chain"])
    handle = await start_run(stack.client, settings.task_queue, request)
    ws = await wait_for_review(handle)
    answer = await temporal_cli(
        stack.temporal_address, "query", "--type", "workspace", "--workflow-id", handle.id
    )
    workspace = answer["queryResult"][0]
    assert workspace["phase"] == "REVIEW"
    assert workspace["pendingApprovals"] == ws.pendingApprovals

    target = ws.pendingApprovals[0]
    await temporal_cli(
        stack.temporal_address,
        "signal",
        "--name",
        "approve",
        "--workflow-id",
        handle.id,
        "--input",
        json.dumps(target),
    )
    for _ in range(50):
        after = await handle.query(MiningWorkflow.workspace)
        if target not in after.pendingApprovals:
            break
        await asyncio.sleep(0.1)
    approved = next(c for c in after.candidates if c.id == target)
    assert approved.status == "approved"
    await handle.cancel()


def test_readme_shows_the_two_commands_first() -> None:
    readme = (ROOT / "README.md").read_text()
    first_commands = [line.strip() for line in readme.splitlines() if line.startswith("make ")]
    assert first_commands[:2] == ["make demo", "make test"]


def test_dkg_commands_query_get_and_load(settings: Settings, tmp_path: Path) -> None:
    high = kminer(
        settings,
        "dkg",
        "query",
        "SELECT ?ual ?stake WHERE { GRAPH <did:dkg:metadata> "
        "{ ?ual dkg:stakeAmount ?stake FILTER(?stake > 50000) } }",
    )
    assert high.returncode == 0, high.stderr
    rows = json.loads(high.stdout)["rows"]
    assert rows and all(float(r["stake"]) > 50000 for r in rows)

    ual = rows[0]["ual"]
    got = kminer(settings, "dkg", "get", ual)
    assert got.returncode == 0 and json.loads(got.stdout)["asset"]["@type"]

    refused = kminer(settings, "dkg", "query", "DELETE WHERE { ?s ?p ?o }")
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1 and "read queries" in refused.stderr

    missing = kminer(settings, "dkg", "get", "did:dkg:otp:2043/0x0/999999")
    assert missing.returncode == 2 and "no Knowledge Asset" in missing.stderr

    new = tmp_path / "asset.json"
    new.write_text(
        json.dumps(
            {
                "asset": {
                    "@context": "https://schema.org/",
                    "@type": "Organization",
                    "@id": "urn:test:org:acme-lithium",
                    "name": "Acme Lithium Test",
                    "identifier": "urn:test:acme",
                },
                "metadata": {"stakeAmount": 60000, "publisher": "0xabc", "domain": "supply_chain"},
            }
        )
    )
    loaded = kminer(settings, "dkg", "load", str(new))
    assert loaded.returncode == 0 and loaded.stdout.startswith("loaded 1 assets")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    refused_load = kminer(settings, "dkg", "load", str(broken))
    assert refused_load.returncode == 2 and "not valid JSON-LD" in refused_load.stderr
    again = kminer(settings, "dkg", "load", str(new))
    assert again.stdout.startswith("loaded 0 assets"), "loading is idempotent"


def test_dkg_query_that_crashed_the_cli_exits_2_with_one_line(settings: Settings) -> None:
    """Queries of issue 24 (exit 139 before), refused before parsing and stopped at the
    time limit: by name, exit 2, one line (every shape is in tests/api/test_hostile_sparql.py)."""
    shapes = ("12,000-term sum", "3,400 path steps", "three-pattern cross product")
    for name, query in ((n, {**CRASHING, **ENDLESS}[n]) for n in shapes):
        started = time.monotonic()
        refused = kminer(settings, "dkg", "query", query)
        assert refused.returncode == 2, (name, refused.returncode, refused.stderr[-500:])
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        limit = "the limit is" if name in CRASHING else "exceeds the 5 s time limit"
        assert limit in refused.stderr and refused.stdout == ""
        if name in ENDLESS:
            # Before, the three-pattern query never ended; the bound is loose because the
            # CLI's own start takes seconds on a loaded machine.
            assert time.monotonic() - started < 60.0
    ordinary = kminer(settings, "dkg", "query", ORDINARY)
    assert ordinary.returncode == 0 and len(json.loads(ordinary.stdout)["rows"]) == 5
