"""What `quality.sets` in bench/results.json keeps from one run of the labeled sets to
the next (bench/shared_sets.sets_record): the new figures and the commit measured, the
earlier record's recall per set as `previous`, and the first run's `before` untouched."""

from __future__ import annotations

import subprocess

from bench.shared_sets import ROOT, sets_record

EARLIER = {
    "climate": {"recall": 0.7, "gold_found": 23},
    "software": {"recall": 0.5},
    "macro": {"recall": 0.6, "sets": 2},
    "measured": "2026-11-01",
    "commit": "1111111",
    "before": {"climate": 0.06, "note": "first run"},
    "previous": {"climate": 0.65, "commit": "0000000"},
    "note": "what the earlier run found",
}


def test_a_new_record_reads_against_the_earlier_one_and_the_first() -> None:
    new = {"climate": {"recall": 0.8}, "software": {"recall": 0.5}, "macro": {"recall": 0.65}}
    record = sets_record(new, EARLIER)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    assert record["climate"] == {"recall": 0.8} and record["macro"] == {"recall": 0.65}
    assert record["commit"] == head
    assert record["previous"] == {"climate": 0.7, "software": 0.5, "macro": 0.6,
                                  "commit": "1111111"}  # fmt: skip
    assert record["before"] == EARLIER["before"]
    assert "note" not in record  # a note said of other figures is not carried over


def test_a_first_record_has_nothing_to_read_against() -> None:
    record = sets_record({"food": {"recall": 0.8}, "macro": {"recall": 0.8}}, {})
    assert "previous" not in record and "before" not in record
    assert record["food"] == {"recall": 0.8}
