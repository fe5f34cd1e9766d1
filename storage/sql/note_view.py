"""The text of a memory note, and what a run reads of it: all of it while it is short,
else its head and its latest run sections.

A note gains a section every run (`## Run <id> (<step>)`, a `MemorySection` row written by
storage/sql/memory_repo.py) and is never trimmed: it is the domain's durable record, read
whole through the memory API and the UI. A run, though, carries what it reads into every
task of its agents, into its research sub-questions and into its history; a note that grew
for a year would be sent in full to the model on every call. So a run reads a bounded
view: the head (the title and whatever a person wrote above the first run section) and,
newest first, as many whole run sections as fit, with one line saying how many earlier
ones are left out. The last section wins where notes disagree
(`mining/scoring.threshold_from_rules` reads the last threshold), and the newest sections
are the ones kept.

The view is defined on the note's text (`note_view`); `latest_view` gives the same view
from the text before the first run section, the latest sections and their total count,
so a long note's view is read from its latest rows only (storage/sql/note_rows.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

# How a run's section of a note begins (storage/sql/memory_repo.py writes it).
RUN_HEADING = "## Run "
RUN_SECTION = re.compile("^" + re.escape(RUN_HEADING), re.MULTILINE)
NOTE_TITLES = {
    "discovery-notes": "Discovery Notes",
    "schema-notes": "Schema Notes",
    "validation-rules": "Validation Rules",
}
# About the last fifteen runs' discovery notes (a run adds 400 to 600 characters).
DEFAULT_NOTE_CHARS = 8000
MIN_NOTE_CHARS = 1000


def _left_out(sections: int) -> str:
    noun = "section" if sections == 1 else "sections"
    return f"_({sections} earlier run {noun} of this note left out here)_\n\n"


def _cut(text: str, room: int) -> str:
    """`text` in at most `room` characters, saying so when it had to be cut."""
    if len(text) <= room:
        return text
    mark = " …(cut)\n\n"
    return text[: max(0, room - len(mark))] + mark


def default_head(tag: str, name: str) -> str:
    """The head of a note nobody has edited: its title."""
    return f"# {NOTE_TITLES.get(name, name)} - {tag}\n"


def section_text(run_id: str, step: str, lines: list[str]) -> str:
    """A run section as it stands in its note."""
    text = "\n".join(f"- {line.strip()}" for line in lines if line.strip())
    return f"\n{RUN_HEADING}{run_id} ({step})\n{text}\n"


def split_note(text: str) -> tuple[str, list[str]]:
    """A note's text as its head and its run sections as they are stored: each section
    from the line break before its heading (from the heading when it opens the text), so
    head and sections join back to `text`."""
    bounds = [m.start() - 1 if m.start() > 0 else 0 for m in RUN_SECTION.finditer(text)]
    if not bounds:
        return text, []
    ends = [*bounds[1:], len(text)]
    return text[: bounds[0]], [text[a:b] for a, b in zip(bounds, ends, strict=True)]


def split_sections(text: str) -> tuple[str, list[str]]:
    """`text` as what comes before its first run section and its run sections, each from
    its heading to the next one (the view's pieces: they join back to `text`)."""
    starts = [m.start() for m in RUN_SECTION.finditer(text)]
    if not starts:
        return text, []
    return text[: starts[0]], [text[a:b] for a, b in pairwise([*starts, len(text)])]


def note_view(content: str, limit: int = DEFAULT_NOTE_CHARS) -> str:
    """`content` whole if it has at most `limit` characters; else its head (at most half
    the limit) and its latest whole run sections, in order, within `limit` characters."""
    if len(content) <= limit:
        return content
    head, sections = split_sections(content)
    if not sections:
        return _cut(content, limit)
    return latest_view(head, sections, len(sections), limit)


def latest_view(head: str, latest: Sequence[str], total: int, limit: int) -> str:
    """The view of a note longer than `limit` characters whose text before its first run
    section is `head` and whose last `len(latest)` of `total` run sections are `latest`
    (as `split_sections` cuts them). `latest` must hold more than fits in `limit`, or all
    `total` sections."""
    head = _cut(head, limit // 2)
    # Room for the line that counts what is left out, at its longest.
    room = limit - len(head) - len(_left_out(total))
    kept: list[str] = []
    for section in reversed(latest):
        if len(section) > room:
            break
        kept.append(section)
        room -= len(section)
    if not kept:
        # The latest section alone is longer than the room left: its beginning.
        kept.append(_cut(latest[-1], room))
    kept.reverse()
    return head + _left_out(total - len(kept)) + "".join(kept)
