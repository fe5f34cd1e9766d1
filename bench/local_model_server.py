"""One GGUF model served by llama.cpp (xllamacpp) on 127.0.0.1, for bench/local_model.py.

    .venv/bin/python bench/local_model_server.py --model FILE --port N [--threads 2] [--ctx 16384]

A process of its own so the caller can stop it by its PID whatever the native server
thread is doing. xllamacpp runs llama.cpp's OpenAI-compatible HTTP server in a
background thread; this process only keeps it alive and leaves on SIGTERM or SIGINT.
Jinja chat templates are on (llama.cpp's --jinja), so the tools are offered in the
model's own template, as README "With a local model" asks of a llama.cpp server.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from types import FrameType


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx", type=int, default=16384)
    args = parser.parse_args()

    import xllamacpp as xlc

    stop = threading.Event()

    def leave(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, leave)
    signal.signal(signal.SIGINT, leave)

    params = xlc.CommonParams()
    params.model.path = args.model
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx
    # One slot holds the whole context: the miner's prompts need it, and two cores gain
    # nothing from decoding several requests at once (the others queue).
    params.n_parallel = 1
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.use_jinja = True
    # /v1/models lists the file's name, not its path, as the model's id (the bench's
    # `model` field; README's DEEPAGENTS_MODEL example).
    params.model_alias = {os.path.basename(args.model)}
    server = xlc.Server(params)
    print(f"local_model_server: {server.listening_address}", flush=True)
    while not stop.wait(1.0):
        pass
    sys.stdout.flush()
    # The native server thread is not ours to join; the process ends here, at once.
    os._exit(0)


if __name__ == "__main__":
    raise SystemExit(main())
