"""Waiting for a `kminer up` started as a subprocess to answer /healthz."""

from __future__ import annotations

import subprocess
import time

import httpx


def wait_until_healthy(proc: subprocess.Popen, port: int, timeout: float) -> bool:
    """True once /healthz answers 200; False if the process ends or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    return False
