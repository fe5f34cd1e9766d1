"""What a run reads of a memory note: all of it while it is short, else its head and its
latest run sections.

A note gains a section every run (`## Run <id> (<step>)`, storage/sql/memory_repo.py) and is
never trimmed: it is the domain's durable record, read whole through the memory API and
the UI. A run, though, carries what it reads into every task of its agents, into its
research sub-questions and into its history; a note that grew for a year would be sent
in full to the model on every call. So a run reads a bounded view: the head (the title
and whatever a person wrote above the first run section) and, newest first, as many whole
run sections as fit, with one line saying how many earlier ones are left out. The last
section wins where notes disagree (`mining/scoring.threshold_from_rules` reads the
last threshold), and the newest sections are the ones kept.
"""

from __future__ import annotations

import re
from itertools import pairwise

# How a run's section of a note begins (storage/sql/memory_repo.py writes it).
RUN_HEADING = "## Run "
RUN_SECTION = re.compile("^" + re.escape(RUN_HEADING), re.MULTILINE)
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


def note_view(content: str, limit: int = DEFAULT_NOTE_CHARS) -> str:
    """`content` whole if it has at most `limit` characters; else its head (at most half
    the limit) and its latest whole run sections, in order, within `limit` characters."""
    if len(content) <= limit:
        return content
    starts = [m.start() for m in RUN_SECTION.finditer(content)]
    if not starts:
        return _cut(content, limit)
    head = _cut(content[: starts[0]], limit // 2)
    sections = [content[a:b] for a, b in pairwise([*starts, len(content)])]
    # Room for the line that counts what is left out, at its longest.
    room = limit - len(head) - len(_left_out(len(sections)))
    kept: list[str] = []
    for section in reversed(sections):
        if len(section) > room:
            break
        kept.append(section)
        room -= len(section)
    if not kept:
        # The latest section alone is longer than the room left: its beginning.
        kept.append(_cut(sections[-1], room))
    kept.reverse()
    return head + _left_out(len(sections) - len(kept)) + "".join(kept)
