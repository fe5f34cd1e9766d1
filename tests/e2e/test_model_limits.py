"""The model-call limits are settings: a bad value is one line and exit 2 from the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from contracts.model_calls import ModelLimits
from kminer.config import load_settings

BAD = [
    ({"KM_MODEL_CALL_TIMEOUT_SECONDS": "5m"}, "KM_MODEL_CALL_TIMEOUT_SECONDS must be a positive"),
    ({"KM_MODEL_CALL_TIMEOUT_SECONDS": "0"}, "KM_MODEL_CALL_TIMEOUT_SECONDS must be a positive"),
    ({"KM_MODEL_HEARTBEAT_SECONDS": "-1"}, "KM_MODEL_HEARTBEAT_SECONDS must be a positive"),
    ({"KM_MODEL_MAX_ATTEMPTS": "many"}, "KM_MODEL_MAX_ATTEMPTS must be a positive"),
    # A heartbeat timeout the call's own timeout would always beat.
    ({"KM_MODEL_HEARTBEAT_SECONDS": "300"}, "KM_MODEL_HEARTBEAT_SECONDS (300) must be less"),
    ({"KM_MODEL_CALL_TIMEOUT_SECONDS": "60", "KM_MODEL_HEARTBEAT_SECONDS": "90"},
     "than the model call's start-to-close timeout (60 s"),
    # The bounds a request's own limits have too (contracts/model_calls.py).
    ({"KM_MODEL_MAX_ATTEMPTS": "50"},
     "KM_MODEL_MAX_ATTEMPTS: Input should be less than or equal to 20"),
    ({"KM_MODEL_CALL_TIMEOUT_SECONDS": "100000"},
     "KM_MODEL_CALL_TIMEOUT_SECONDS: Input should be less than or equal to 86400"),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "said"), BAD)
def test_a_bad_model_limit_is_one_line_and_exit_2(
    extra: dict[str, str], said: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KM_MODEL_")}
    env.update(KM_DATA_DIR=str(tmp_path), TEMPORAL_ADDRESS="127.0.0.1:1", **extra)
    done = subprocess.run(
        [sys.executable, "-m", "kminer.cli", "worker"],
        env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and said in lines[0], done.stderr
    assert not (tmp_path / "kminer.db").exists(), "refused before anything was opened"


def test_unset_limits_keep_the_defaults_and_set_ones_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("CALL_TIMEOUT_SECONDS", "HEARTBEAT_SECONDS", "MAX_ATTEMPTS"):
        monkeypatch.delenv(f"KM_MODEL_{name}", raising=False)
    assert load_settings(tmp_path).model_limits == ModelLimits()
    monkeypatch.setenv("KM_MODEL_CALL_TIMEOUT_SECONDS", "900")
    monkeypatch.setenv("KM_MODEL_HEARTBEAT_SECONDS", "60")
    monkeypatch.setenv("KM_MODEL_MAX_ATTEMPTS", "2")
    limits = load_settings(tmp_path).model_limits
    assert limits == ModelLimits(callSeconds=900, heartbeatSeconds=60, attempts=2)
