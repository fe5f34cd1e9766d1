"""What a run mines, end to end on the real stack: relevance, the user's documents, the answer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF

from contracts.run import KnowledgeMinerResponse, MiningRequest, Phase
from kminer.config import Settings
from kminer.stack import embedded_stack
from storage.corpus.index import CorpusIndex
from temporal_client.runs import start_run

PDF_FACT = (
    "Quokka Ridge Minerals supplies spodumene concentrate to Tesla from its Wallaby Creek mine "
    "in Western Australia."
)


async def mine(settings: Settings, query: str, tags: list[str]) -> KnowledgeMinerResponse:
    async with embedded_stack(settings, with_api=False) as stack:
        handle = await start_run(
            stack.client, settings.task_queue, MiningRequest(query=query, domainTags=tags,
                                                              review="auto")
        )  # fmt: skip
        return await handle.result()


async def test_a_question_with_no_evidence_proposes_and_publishes_nothing(
    settings: Settings,
) -> None:
    result = await mine(
        settings, "Which semiconductor fabs depend on neon gas from Ukraine?", ["semiconductors"]
    )
    assert result.phase == Phase.COMPLETED
    assert result.candidateAssets == [] and result.publishedAssets == []
    assert result.answer.evidenceFound is False
    assert result.answer.text.startswith("No evidence found")
    assert "nothing was proposed or published" in result.answer.text


def write_folder(folder: Path) -> dict[str, Path]:
    folder.mkdir()
    md = folder / "wallaby.md"
    md.write_text(
        "# Wallaby Creek expansion\nSource: https://wire.example.org/wallaby\n"
        "Published: 2026-10-02\n\nWallaby Creek is a hard-rock lithium mine in Western "
        "Australia. Its owner plans a second crusher next year.\n",
        encoding="utf-8",
    )
    (folder / "notes.txt").write_text(
        "Market notes\n\nSpodumene prices rose in October as converters restocked.\n",
        encoding="utf-8",
    )
    (folder / "page.html").write_text(
        "<html><head><title>Battery week</title></head><body><nav>menu</nav>"
        "<p>Cell makers in Korea signed new offtake deals this week.</p></body></html>",
        encoding="utf-8",
    )
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, "Supplier briefing\n\n" + PDF_FACT + "\n\nShipments start in May.")
    pdf.output(str(folder / "briefing.pdf"))
    return {"pdf": folder / "briefing.pdf", "md": md}


def corpus_add(settings: Settings, *paths: Path) -> subprocess.CompletedProcess:
    kminer = Path(sys.executable).parent / "kminer"
    return subprocess.run(
        [str(kminer), "corpus", "add", "--data-dir", str(settings.data_dir), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def evidence_of(asset: dict[str, Any]) -> list[dict[str, Any]]:
    return asset["provenance"]["evidence"]


async def test_added_documents_are_mined_with_passage_provenance_and_new_entities(
    settings: Settings, tmp_path: Path
) -> None:
    files = write_folder(tmp_path / "docs")
    added = corpus_add(settings, tmp_path / "docs")
    assert added.returncode == 0, added.stderr
    result = await mine(settings, "Who supplies spodumene concentrate to Tesla?", ["supply_chain"])

    pdf_uri = files["pdf"].resolve().as_uri()
    claims = [a for a in result.candidateAssets if a["candidateKind"] == "claim"]
    from_pdf = [c for c in claims if any(e["source"] == pdf_uri for e in evidence_of(c))]
    assert from_pdf, [c["name"] for c in claims]
    claim = next(c for c in from_pdf if c["additionalProperty"]["value"] == "supplies")
    assert claim["about"]["name"] == "Quokka Ridge Minerals"
    item = next(e for e in evidence_of(claim) if e["source"] == pdf_uri)
    # The evidence points at the passage of the PDF that states the fact.
    index = CorpusIndex(settings.data_dir / "corpus.db", settings.corpus_dir)
    passage = index.passage(item["id"])
    assert passage is not None and passage.url == pdf_uri
    assert " ".join(item["snippet"].split()) in " ".join(passage.content.split())
    assert "Quokka Ridge Minerals supplies spodumene" in " ".join(passage.content.split())

    # The company is named only in that document: it is proposed as a new asset, and the
    # claim links to it.
    entities = {a["@id"]: a for a in result.candidateAssets if a["candidateKind"] == "entity"}
    quokka = next(e for e in entities.values() if e["name"] == "Quokka Ridge Minerals")
    assert quokka["@type"] == "Organization" and claim["about"]["@id"] == quokka["@id"]
    assert pdf_uri in quokka["provenance"]["sources"]


def test_an_unreadable_file_is_one_line_and_the_rest_still_indexes(
    settings: Settings, tmp_path: Path
) -> None:
    files = write_folder(tmp_path / "docs")
    (tmp_path / "docs" / "empty.txt").write_text("", encoding="utf-8")
    done = corpus_add(settings, tmp_path / "docs")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"kminer: cannot index {tmp_path / 'docs' / 'empty.txt'}: empty file"
    ]
    index = CorpusIndex(settings.data_dir / "corpus.db", settings.corpus_dir)
    assert any(d.path == str(files["pdf"].resolve()) for d in index.documents())


@pytest.mark.parametrize("flag", ["--tier"])
def test_a_declared_tier_travels_with_the_passages(
    settings: Settings, tmp_path: Path, flag: str
) -> None:
    files = write_folder(tmp_path / "docs")
    kminer = Path(sys.executable).parent / "kminer"
    done = subprocess.run(
        [str(kminer), "corpus", "add", "--data-dir", str(settings.data_dir), flag, "high",
         str(files["md"])],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    index = CorpusIndex(settings.data_dir / "corpus.db", settings.corpus_dir)
    hit = index.search("Wallaby Creek crusher", 1)[0]
    assert hit.url == "https://wire.example.org/wallaby" and hit.tier == "high"
