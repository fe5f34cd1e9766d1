"""Debian's chromium for the browser tests: installed with apt when missing.

Playwright drives the system browser (`executable_path`); `playwright install` is never
run, so no browser build is downloaded from anywhere but Debian's own packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
APT_TIMEOUT_SECONDS = 900


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(
        ["apt-get", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=APT_TIMEOUT_SECONDS,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def ensure_chromium() -> tuple[Path | None, str]:
    """The chromium binary, installing the Debian package if needed; else why not."""
    if CHROMIUM.exists():
        return CHROMIUM, ""
    if shutil.which("apt-get") is None:
        return None, "chromium is missing and apt-get is not available to install it"
    done = _apt("install", "-y", "--no-install-recommends", "chromium")
    if done.returncode != 0:
        # A fresh machine may not have package lists yet.
        _apt("update")
        done = _apt("install", "-y", "--no-install-recommends", "chromium")
    if done.returncode != 0 or not CHROMIUM.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return None, "apt-get install chromium failed: " + " | ".join(tail)
    return CHROMIUM, ""
