"""Sign-in and roles on the real API: 401 without a good token, 403 for the wrong role."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.auth import Principal, TokenIssuer, load_secret
from kminer.config import Settings
from kminer.stack import Stack

QUESTION = {"query": "Which suppliers of lithium carry geopolitical risk?", "domainTags": []}


async def test_no_token_or_a_bad_one_is_401_and_health_stays_open(
    stack: Stack, settings: Settings
) -> None:
    forged = TokenIssuer("not-the-secret-but-long-enough-for-hs256").mint("mallory", "admin")
    expired = TokenIssuer(load_secret(settings.data_dir)).mint("old", "admin", ttl_seconds=-5)
    async with httpx.AsyncClient(base_url=stack.api_url or "") as http:
        assert (await http.get("/healthz")).status_code == 200
        assert (await http.get("/openapi.json")).status_code == 200
        missing = await http.get("/api/runs")
        assert missing.status_code == 401 and "Bearer" in missing.headers["www-authenticate"]
        for token in (forged, expired, "garbage"):
            bad = await http.get("/api/runs", headers={"Authorization": f"Bearer {token}"})
            assert bad.status_code == 401, token
        assert (
            "expired"
            in (await http.get("/api/runs", headers={"Authorization": f"Bearer {expired}"})).json()[
                "detail"
            ]
        )


async def test_me_says_whom_a_token_stands_for_or_refuses_it(
    stack: Stack, bearer: Any, settings: Settings
) -> None:
    forged = TokenIssuer("not-the-secret-but-long-enough-for-hs256").mint("mallory", "admin")
    async with httpx.AsyncClient(base_url=stack.api_url or "") as http:
        me = await http.get("/api/me", headers=bearer("reviewer", "rita"))
        assert me.status_code == 200 and me.json() == {"sub": "rita", "role": "reviewer"}
        refused = await http.get("/api/me", headers={"Authorization": f"Bearer {forged}"})
        assert refused.status_code == 401
        assert "Signature verification failed" in refused.json()["detail"]


async def test_roles_decide_who_may_do_what(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        started = await http.post("/api/runs", json=QUESTION, headers=bearer("miner", "ana"))
        assert started.status_code == 202
        run_id = started.json()["runId"]
        # A miner reads its own run, not someone else's, and may not decide.
        assert (
            await http.get(f"/api/runs/{run_id}", headers=bearer("miner", "ana"))
        ).status_code == 200
        other = await http.get(f"/api/runs/{run_id}", headers=bearer("miner", "bob"))
        assert other.status_code == 404
        decide = await http.post(
            f"/api/runs/{run_id}/decisions",
            json=[{"candidateId": "cand-x", "action": "approve"}],
            headers=bearer("miner", "ana"),
        )
        assert decide.status_code == 403 and "needs 'reviewer'" in decide.json()["detail"]
        # A reviewer reads every run; the list shows who started each.
        listed = await http.get("/api/runs", headers=bearer("reviewer", "rita"))
        mine = next(r for r in listed.json()["runs"] if r["runId"] == run_id)
        assert mine["principal"] == "ana"
        only_bob = await http.get("/api/runs", headers=bearer("miner", "bob"))
        assert run_id not in {r["runId"] for r in only_bob.json()["runs"]}
        await http.post(f"/api/runs/{run_id}/cancel", headers=bearer("miner", "ana"))


def test_kminer_token_mints_a_token_the_api_accepts(settings: Settings, tmp_path: Path) -> None:
    kminer = Path(sys.executable).parent / "kminer"
    data = str(settings.data_dir)
    done = subprocess.run(
        [str(kminer), "token", "--role", "reviewer", "--sub", "alice", "--data-dir", data],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    who = TokenIssuer(load_secret(settings.data_dir)).verify(done.stdout.strip())
    assert who == Principal(sub="alice", role="reviewer")
    assert (settings.data_dir / "jwt-secret").stat().st_mode & 0o077 == 0
    bad = subprocess.run(
        [str(kminer), "token", "--role", "god", "--sub", "x", "--data-dir", data],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_a_short_configured_secret_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("KM_JWT_SECRET", "short")
    with pytest.raises(ValueError, match="at least 32 characters"):
        load_secret(tmp_path)
    monkeypatch.setenv("KM_JWT_SECRET", "x" * 32)
    assert load_secret(tmp_path) == "x" * 32


def test_roles_are_ordered() -> None:
    assert Principal("a", "admin").at_least("reviewer")
    assert not Principal("m", "miner").at_least("reviewer")
    with pytest.raises(ValueError):
        TokenIssuer("s" * 32).mint("x", "root")
