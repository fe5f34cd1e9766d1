"""BoundedMemo: one computation per key, at most `maxsize` kept, shared by threads."""

from __future__ import annotations

import threading

import pytest

from mining.memo import BoundedMemo


def test_the_same_key_gives_the_same_object_without_computing_again() -> None:
    memo: BoundedMemo[str, list[str]] = BoundedMemo(4)
    calls: list[str] = []

    def compute(key: str) -> list[str]:
        calls.append(key)
        return [key.upper()]

    first = memo.get("a", lambda: compute("a"))
    again = memo.get("a", lambda: compute("a"))
    other = memo.get("b", lambda: compute("b"))
    assert again is first
    assert other == ["B"] and other is not first
    assert calls == ["a", "b"]
    assert (memo.hits, memo.misses) == (1, 2)


def test_it_keeps_at_most_maxsize_least_recently_used_out_first() -> None:
    memo: BoundedMemo[int, int] = BoundedMemo(2)
    memo.get(1, lambda: 10)
    memo.get(2, lambda: 20)
    memo.get(1, lambda: 10)  # 1 used last: 2 is the one to go
    memo.get(3, lambda: 30)
    assert len(memo) == 2
    assert 1 in memo and 3 in memo and 2 not in memo
    assert memo.get(2, lambda: 21) == 21  # computed again after eviction


def test_a_size_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        BoundedMemo(0)


def test_concurrent_askers_of_one_key_share_one_computation() -> None:
    memo: BoundedMemo[str, object] = BoundedMemo(8)
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []
    results: list[object] = []

    def compute() -> object:
        calls.append(1)
        started.set()
        release.wait(10)
        return object()

    def ask() -> None:
        results.append(memo.get("k", compute))

    threads = [threading.Thread(target=ask) for _ in range(5)]
    threads[0].start()
    assert started.wait(10)  # the first asker is computing
    for t in threads[1:]:
        t.start()
    release.set()
    for t in threads:
        t.join(10)
    assert len(calls) == 1
    assert len(results) == 5 and all(r is results[0] for r in results)


def test_a_failed_computation_is_not_kept_and_the_next_asker_computes() -> None:
    memo: BoundedMemo[str, int] = BoundedMemo(2)

    def broken() -> int:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        memo.get("k", broken)
    assert "k" not in memo
    assert memo.get("k", lambda: 7) == 7
