"""`kminer` commands and workers run as subprocesses against a test's settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kminer.config import Settings


def kminer(settings: Settings, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "KM_DATA_DIR": str(settings.data_dir),
        "KM_TASK_QUEUE": settings.task_queue,
        "TEMPORAL_ADDRESS": settings.temporal_address or "",
    }
    env.pop("OPENAI_API_KEY", None)
    env.pop("TAVILY_API_KEY", None)
    return subprocess.run(
        [sys.executable, "-m", "kminer.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def start_worker(settings: Settings, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "KM_DATA_DIR": str(settings.data_dir),
        "KM_TASK_QUEUE": settings.task_queue,
        "TEMPORAL_ADDRESS": settings.temporal_address or "",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "kminer.cli", "worker"],
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
