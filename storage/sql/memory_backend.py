"""`/memories/**` as a Deep Agents backend over the SQL memory notes.

The workflow routes `/memories/` to this backend through a CompositeBackend and
`TemporalBackend("memory", ...)`, so every read, write and edit an agent makes
there is a `deepagents.backend_op` activity that runs here, on the worker.
StateBackend already implements the file semantics (ls, read windows, edit,
grep, glob) over a dict of files; this class only swaps where that dict lives.

An agent reads each note whole (its head and every run section) and may change its head
(the text above the first run section) against the version it read; a write that would
change a run section is refused with the reason, as a stale one is.
"""

from __future__ import annotations

import re
from typing import Any

from deepagents.backends import StateBackend
from deepagents.backends.protocol import DeleteResult, EditResult, WriteResult

from contracts.run import NOTE_NAMES, TAG_PATTERN
from storage.sql.memory_repo import MemoryRepository, SectionEditError, StaleNoteError

# Paths arrive with the route prefix stripped: /knowledge/<tag>/<note>.md
NOTE_PATH = re.compile(r"^/knowledge/([^/]+)/([^/]+)\.md$")
ALLOWED = "/memories/knowledge/<tag>/{discovery-notes,schema-notes,validation-rules}.md"


def note_key(path: str) -> tuple[str, str] | None:
    match = NOTE_PATH.match(path)
    if not match or not TAG_PATTERN.fullmatch(match.group(1)) or match.group(2) not in NOTE_NAMES:
        return None
    return match.group(1), match.group(2)


class SqlMemoryBackend(StateBackend):
    def __init__(
        self, repo: MemoryRepository, run_id: str | None = None, tags: list[str] | None = None
    ) -> None:
        super().__init__()
        self._repo = repo
        self._run_id = run_id
        self._tags = set(tags) if tags is not None else None
        self._versions: dict[str, int] = {}

    def _read_files(self) -> dict[str, Any]:
        files = {}
        for note in self._repo.list_notes():
            path = f"/knowledge/{note.domain_tag}/{note.name}.md"
            self._versions[path] = note.version
            files[path] = {
                "content": note.content,
                "encoding": "utf-8",
                "modified_at": note.updated_at.isoformat(),
            }
        return files

    def _send_files_update(self, update: dict[str, Any]) -> None:
        for path, data in update.items():
            key = note_key(path)
            if key is None or data is None:
                # write/edit/delete check first; reaching here is a programming error.
                raise ValueError(f"refusing to change {path}")
            self._repo.put(
                tag=key[0],
                name=key[1],
                content=data["content"],
                run_id=self._run_id,
                expected_version=self._versions.get(path, 0),
            )

    def _refusal(self, file_path: str) -> str | None:
        key = note_key(file_path)
        if key is None:
            return f"long-term memory only holds {ALLOWED}"
        if self._tags is not None and key[0] not in self._tags:
            return f"this run writes only the notes of its tags: {', '.join(sorted(self._tags))}"
        return None

    def write(self, file_path: str, content: str) -> WriteResult:
        refusal = self._refusal(file_path)
        if refusal:
            return WriteResult(error=refusal)
        try:
            return super().write(file_path, content)
        except (StaleNoteError, SectionEditError) as exc:
            return WriteResult(error=str(exc))

    def edit(
        self, file_path: str, old_string: str, new_string: str, replace_all: bool = False
    ) -> EditResult:
        refusal = self._refusal(file_path)
        if refusal:
            return EditResult(error=refusal)
        try:
            return super().edit(file_path, old_string, new_string, replace_all)
        except (StaleNoteError, SectionEditError) as exc:
            return EditResult(error=str(exc))

    def delete(self, file_path: str) -> DeleteResult:
        return DeleteResult(error="long-term memory notes are never deleted")
