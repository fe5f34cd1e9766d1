"""`kminer corpus add|list|remove|search` run as a user runs them: a separate process each."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from datetime import datetime
from pathlib import Path

from fpdf import FPDF

from kminer.config import load_settings
from storage.corpus.index import CorpusIndex

CONSOLE_SCRIPT = Path(sys.executable).with_name("kminer")
PDF_ONLY_SENTENCE = "The Quokkastone brine field doubled its output in March 2024."
PASSAGE_ID = re.compile(r"passage ([0-9a-f]{12}:\d+)  chars (\d+)-(\d+)")


def kminer(data_dir: Path, command: str, *args: str) -> subprocess.CompletedProcess[str]:
    base = (
        [str(CONSOLE_SCRIPT)] if CONSOLE_SCRIPT.exists() else [sys.executable, "-m", "kminer.cli"]
    )
    env = {k: v for k, v in os.environ.items() if k not in ("KM_DATA_DIR", "TAVILY_API_KEY")}
    return subprocess.run(
        [*base, "corpus", command, "--data-dir", str(data_dir), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def stderr_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in done.stderr
    return done.stderr.splitlines()


def write_pdf(path: Path) -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    pdf.set_title("Quarterly brine report")
    pdf.set_creation_date(datetime(2024, 4, 2))
    pdf.add_page()
    pdf.multi_cell(0, 8, PDF_ONLY_SENTENCE + " Engineers credit the new evaporation ponds.")
    pdf.output(str(path))


def make_library(root: Path) -> Path:
    docs = root / "library"
    (docs / "web").mkdir(parents=True)
    (docs / "note.md").write_text(
        "# Salar field note\nSource: https://notes.example.org/salar\nPublished: 2024-02-01\n\n"
        "Flamingo counts fell at the lagoon this season.\n",
        encoding="utf-8",
    )
    (docs / "plain.txt").write_text("Meeting minutes\n\nThe co-op voted on water rights.\n")
    (docs / "web" / "page.html").write_text(
        "<html><head><title>Pond levels</title><script>track()</script></head>"
        "<body><nav>menu</nav><p>Evaporation pond levels dropped in June.</p></body></html>"
    )
    write_pdf(docs / "report.pdf")
    (docs / "empty.txt").write_text("")
    (docs / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 4)
    return docs


def test_corpus_commands_as_a_user_runs_them(tmp_path: Path) -> None:
    data, docs = tmp_path / "data", make_library(tmp_path)

    first = kminer(data, "add", str(docs))
    assert first.returncode == 2
    errors = stderr_lines(first)
    assert len(errors) == 2, errors
    assert errors[0].startswith(f"kminer: cannot index {docs / 'corrupt.pdf'}: ")
    assert errors[1] == f"kminer: cannot index {docs / 'empty.txt'}: empty file"
    added = [line.split()[1] for line in first.stdout.splitlines() if line.startswith("added")]
    assert added == [str(docs / n) for n in ("note.md", "plain.txt", "report.pdf", "web/page.html")]
    assert "4 added" in first.stdout and "2 failed" in first.stdout

    (docs / "empty.txt").unlink()
    (docs / "corrupt.pdf").unlink()
    again = kminer(data, "add", str(docs))
    assert again.returncode == 0 and stderr_lines(again) == []
    assert [line.split()[0] for line in again.stdout.splitlines()[:-1]] == ["unchanged"] * 4

    (docs / "plain.txt").write_text("Meeting minutes\n\nThe co-op voted on grazing rights.\n")
    changed = kminer(data, "add", "--tier", "high", str(docs / "plain.txt"))
    assert changed.returncode == 0
    assert changed.stdout.splitlines()[0] == f"updated    {docs / 'plain.txt'}"

    found = kminer(data, "search", "quokkastone brine field doubled")
    assert found.returncode == 0 and stderr_lines(found) == []
    assert found.stdout.startswith("1. [") and "Quarterly brine report" in found.stdout
    assert (docs / "report.pdf").resolve().as_uri() in found.stdout
    passage_id, start, end = PASSAGE_ID.search(found.stdout).groups()  # type: ignore[union-attr]
    hits = json.loads(kminer(data, "search", "quokkastone", "--json", "--limit", "1").stdout)
    assert len(hits) == 1 and hits[0]["passageId"] == passage_id
    assert (hits[0]["start"], hits[0]["end"]) == (int(start), int(end))
    assert PDF_ONLY_SENTENCE in " ".join(hits[0]["content"].split())
    assert CorpusIndex(data / "corpus.db", load_settings().corpus_dir).passage(passage_id)

    listing = kminer(data, "list", "--json")
    assert listing.returncode == 0
    added_docs = {d["title"]: d for d in json.loads(listing.stdout) if d["origin"] == "added"}
    assert sorted(added_docs) == ["Meeting minutes", "Pond levels", "Quarterly brine report",
                                  "Salar field note"]  # fmt: skip
    assert added_docs["Meeting minutes"]["tier"] == "high"
    assert added_docs["Quarterly brine report"]["published"] == "2024-04-02"
    table = kminer(data, "list").stdout.splitlines()
    assert table[0].split() == ["id", "origin", "passages", "title", "source"]
    assert any("Pond levels" in row and "added" in row for row in table[1:])

    removed = kminer(data, "remove", str(docs / "note.md"))
    assert removed.returncode == 0 and removed.stdout.strip() == "removed 1 document"
    gone = kminer(data, "search", "flamingo lagoon")
    assert "Salar field note" not in gone.stdout
    unknown = kminer(data, "remove", "https://nowhere.example.org/x")
    assert unknown.returncode == 2 and len(stderr_lines(unknown)) == 1
    assert unknown.stdout == ""

    for round_ in range(3):  # the same commands again and again give the same answers
        repeat = kminer(data, "add", str(docs))
        assert repeat.returncode == 0 and stderr_lines(repeat) == [], round_
        statuses = [line.split()[0] for line in repeat.stdout.splitlines()[:-1]]
        # the removed note comes back once, then everything is unchanged
        assert statuses == (["added"] if round_ == 0 else ["unchanged"]) + ["unchanged"] * 3
        hit = kminer(data, "search", "evaporation pond levels", "--limit", "2")
        assert hit.returncode == 0 and stderr_lines(hit) == []
        assert hit.stdout.startswith("1. [") and "Pond levels" in hit.stdout, round_


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    data = tmp_path / "data"
    missing = kminer(data, "add", str(tmp_path / "nothing-here"))
    assert missing.returncode == 2
    assert stderr_lines(missing) == [
        f"kminer: cannot index {tmp_path / 'nothing-here'}: no such file or directory"
    ]
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n")
    wrong_type = kminer(data, "add", str(tmp_path / "image.png"))
    assert wrong_type.returncode == 2 and len(stderr_lines(wrong_type)) == 1
    assert "unsupported file type '.png'" in wrong_type.stderr
    for args in (("search", "x", "--limit", "0"), ("add", "--tier", "certain", str(tmp_path))):
        done = kminer(data, *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
    nothing = kminer(data, "search", '"*^(-:')
    assert nothing.returncode == 0 and nothing.stdout.strip() == "no passage matches"


def test_a_file_past_the_size_limit_is_one_line_and_exit_2(tmp_path: Path) -> None:
    from storage.corpus.models import MAX_DOCUMENT_BYTES

    data = tmp_path / "data"
    big = tmp_path / "archive.txt"
    with big.open("wb") as out:
        out.truncate(MAX_DOCUMENT_BYTES + 1_000_000)  # sparse: no disk used, never read
    refused = kminer(data, "add", str(big))
    assert refused.returncode == 2
    assert stderr_lines(refused) == [
        f"kminer: cannot index {big}: {(MAX_DOCUMENT_BYTES + 1_000_000) / 1e6:.1f} MB, over the"
        f" {MAX_DOCUMENT_BYTES / 1e6:g} MB a document may have; split it into smaller files"
    ]
    assert "0 added" in refused.stdout and "1 failed" in refused.stdout


def test_adding_from_another_process_while_searching(tmp_path: Path) -> None:
    data, docs = tmp_path / "data", tmp_path / "many"
    docs.mkdir()
    for i in range(40):
        (docs / f"doc{i:02}.md").write_text(f"# Batch note {i}\n\nSpecimen{i} brine assay.\n")
    index = CorpusIndex(data / "corpus.db", load_settings().corpus_dir)
    stop = threading.Event()
    failures: list[BaseException] = []
    searches = [0]

    def search_until_stopped() -> None:
        try:
            while not stop.is_set():
                assert index.search("lithium brine Chile", max_results=3)
                searches[0] += 1
        except BaseException as exc:  # handed to the main thread
            failures.append(exc)

    threads = [threading.Thread(target=search_until_stopped) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        runs = [kminer(data, "add", str(docs)), kminer(data, "remove", str(docs / "doc00.md"))]
        runs.append(kminer(data, "add", str(docs)))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert not failures
    assert [run.returncode for run in runs] == [0, 0, 0], [run.stderr for run in runs]
    assert "40 added" in runs[0].stdout and "1 added, 0 updated, 39 unchanged" in runs[2].stdout
    assert searches[0] > 0
    assert index.search("specimen7")[0].title == "Batch note 7"
