"""A bounded, thread-safe memo for pure work keyed by content.

Activities run in threads of one worker process, and concurrent runs often ask for the
same pure result at the same moment (fifty runs of one question read the same passages).
`BoundedMemo` keeps the last `maxsize` results (least recently used out first) and lets
one thread compute a missing key while the others asking for it wait for that result,
instead of all computing it at once. Only for pure functions of the key: a hit must be
exactly what computing again would give.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedMemo(Generic[K, V]):
    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._values: OrderedDict[K, V] = OrderedDict()
        self._computing: dict[K, threading.Event] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._values

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value of `key`, computed by `compute()` only if no one has it or is on it."""
        while True:
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    self.hits += 1
                    return self._values[key]
                pending = self._computing.get(key)
                if pending is None:
                    mine = self._computing[key] = threading.Event()
                    self.misses += 1
                    break
            # Another thread computes it: wait, then look again (it may have failed).
            pending.wait()
        try:
            value = compute()
        except BaseException:
            with self._lock:
                del self._computing[key]
            mine.set()
            raise
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.maxsize:
                self._values.popitem(last=False)
            del self._computing[key]
        mine.set()
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
