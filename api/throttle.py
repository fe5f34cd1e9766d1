"""How often one principal may start runs: a token bucket per principal (429 when empty).

Mining runs cost model calls, search quota and TRAC; one client looping on
`POST /api/runs` must not crowd out everyone else. In memory, per API process.
"""

from __future__ import annotations

import math
import threading
import time


class StartLimiter:
    def __init__(self, per_minute: int, clock: object = time.monotonic) -> None:
        self.capacity = max(1, per_minute)
        self.rate = self.capacity / 60.0
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> float:
        """0.0 when `who` may start a run now, else the seconds until it may."""
        now = self._clock()  # type: ignore[operator]
        with self._lock:
            tokens, seen = self._buckets.get(who, (float(self.capacity), now))
            tokens = min(float(self.capacity), tokens + (now - seen) * self.rate)
            if tokens >= 1.0:
                self._buckets[who] = (tokens - 1.0, now)
                return 0.0
            self._buckets[who] = (tokens, now)
            return (1.0 - tokens) / self.rate


def retry_after(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))
