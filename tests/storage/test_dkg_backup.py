"""`kminer dkg backup` while the store's owner keeps it open; `kminer dkg restore` from it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from storage.dkg.embedded import SEED_DIR, EmbeddedDkg

KMINER = str(Path(sys.executable).with_name("kminer"))
ASSET = {
    "@context": "https://schema.org/",
    "@type": "Organization",
    "@id": "urn:kminer:test:backup-org",
    "name": "Backup Test Minerals Ltd",
}


def _kminer(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DKG_NODE_URL"}
    return subprocess.run(
        [KMINER, "dkg", *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_backup_while_the_owner_writes_then_restore(tmp_path: Path) -> None:
    data, backup = tmp_path / "data", tmp_path / "dkg.nq"
    owner = EmbeddedDkg(data / "dkg")  # holds the RocksDB lock, as the tools worker does
    try:
        owner.ensure_seeded(SEED_DIR)
        published = owner.publish(ASSET, publisher="ops-test")  # not flushed
        count = owner.count_assets()
        done = _kminer("backup", str(backup), "--data-dir", str(data))
        assert done.returncode == 0, done.stderr
        assert f"backed up {count} Knowledge Assets" in done.stdout
        again = _kminer("backup", str(backup), "--data-dir", str(data))
        assert again.returncode == 2 and again.stderr.count("\n") == 1 and "exists" in again.stderr
        # The owner still holds the store: a restore into it is refused.
        busy = _kminer("restore", str(backup), "--data-dir", str(data))
        assert busy.returncode == 2 and "stop its worker" in busy.stderr
    finally:
        owner.close()
    fresh = tmp_path / "restored"
    done = _kminer("restore", str(backup), "--data-dir", str(fresh))
    assert done.returncode == 0, done.stderr
    assert f"restored {count} Knowledge Assets" in done.stdout
    restored = EmbeddedDkg(fresh / "dkg")
    try:
        assert restored.count_assets() == count
        assert restored.get_asset(published.ual) is not None
        meta = restored.get_metadata(published.ual)
        assert meta is not None and meta.publisher == "ops-test"
    finally:
        restored.close()
    # A second restore into a store that holds assets is refused.
    twice = _kminer("restore", str(backup), "--data-dir", str(fresh))
    assert twice.returncode == 2 and "already holds assets" in twice.stderr


def test_nothing_to_back_up_or_restore_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for args in (("backup", str(tmp_path / "b.nq")), ("restore", str(tmp_path / "none.nq"))):
        done = _kminer(*args, "--data-dir", str(tmp_path / "empty"))
        assert done.returncode == 2, done
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "b.nq").exists()
