"""A run reads a bounded view of each memory note: head and latest run sections."""

from __future__ import annotations

import pytest

from storage.sql.note_view import MIN_NOTE_CHARS, _cut, note_view

HEAD = "# Discovery Notes - supply_chain\n\nPrefer primary sources.\n\n"


def section(n: int, body: str = "x" * 80) -> str:
    return f"## Run run-{n:03d} (discovery)\n- finding {n}: {body}\n\n"


def note(runs: int) -> str:
    return HEAD + "".join(section(n) for n in range(runs))


def test_a_note_that_fits_is_read_whole() -> None:
    text = note(3)
    assert note_view(text, len(text)) == text


def test_a_long_note_keeps_its_head_and_its_latest_sections_in_order() -> None:
    text = note(100)
    view = note_view(text, 1000)
    assert len(view) <= 1000
    assert view.startswith(HEAD)
    kept = [n for n in range(100) if f"run-{n:03d}" in view]
    assert kept == list(range(100 - len(kept), 100)) and len(kept) >= 5
    assert view.endswith(section(99))
    assert f"_({100 - len(kept)} earlier run sections of this note left out here)_" in view


def test_the_view_uses_the_room_it_has() -> None:
    text = note(100)
    small, large = note_view(text, 1000), note_view(text, 4000)
    assert small.count("## Run ") < large.count("## Run ")
    # One more whole section would not have fitted (the count line keeps room for its
    # longest form, a digit or two more than it needs).
    assert 4000 - len(large) < len(section(0)) + 2


def test_a_single_section_left_out_is_counted_in_the_singular() -> None:
    text = note(2)
    view = note_view(text, len(text) - 1)
    assert "_(1 earlier run section of this note left out here)_" in view
    assert view.endswith(section(1))


def test_a_long_head_is_cut_to_half_the_view() -> None:
    head = "# Validation Rules - t\n\n" + "accept_threshold: 0.8\n" * 200
    view = note_view(head + section(1), MIN_NOTE_CHARS)
    assert len(view) <= MIN_NOTE_CHARS
    assert view.index("…(cut)") < MIN_NOTE_CHARS // 2
    assert view.endswith(section(1))


def test_a_head_of_up_to_half_the_view_is_kept_whole() -> None:
    for size in (MIN_NOTE_CHARS // 2, MIN_NOTE_CHARS * 2 // 5):
        head = "# Schema Notes - t\n" + "h" * (size - 20) + "\n"
        assert len(head) == size
        view = note_view(head + section(1, "s" * 2000), MIN_NOTE_CHARS)
        assert view.startswith(head) and "…(cut)" not in view[:size]


def test_a_section_that_exactly_fills_the_room_is_kept() -> None:
    sections = [section(1), section(2), section(3)]
    left_out = "_(3 earlier run sections of this note left out here)_\n\n"  # its longest form
    limit = len(HEAD) + len(left_out) + len(sections[2]) + len(sections[1])
    view = note_view(HEAD + "".join(sections), limit)
    assert view.endswith(sections[1] + sections[2]) and "run-001" not in view
    assert "…(cut)" not in view


def test_a_latest_section_longer_than_the_room_is_shown_from_its_start() -> None:
    text = HEAD + section(1) + section(2) + section(3, "y" * 3000)
    view = note_view(text, MIN_NOTE_CHARS)
    assert len(view) <= MIN_NOTE_CHARS
    assert "## Run run-003" in view and "run-001" not in view and "run-002" not in view
    assert view.rstrip().endswith("…(cut)")


def test_a_cut_into_less_room_than_its_mark_shows_only_the_mark() -> None:
    assert _cut("abcdef" * 10, 3) == " …(cut)\n\n"
    assert _cut("abc", 3) == "abc"


def test_a_long_note_without_run_sections_is_cut() -> None:
    view = note_view("z" * 5000, MIN_NOTE_CHARS)
    assert len(view) <= MIN_NOTE_CHARS and view.startswith("zzz") and "…(cut)" in view


@pytest.mark.parametrize("runs", [0, 1, 7, 60])
def test_the_view_never_exceeds_its_limit(runs: int) -> None:
    text = note(runs)
    for limit in (MIN_NOTE_CHARS, 1500, 8000):
        assert len(note_view(text, limit)) <= max(limit, 0)
