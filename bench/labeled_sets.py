"""What the quality benchmarks share: the seeded demo DKG, label names resolved to its
assets, and the corpus a labeled set is asked over (the held-out set's own documents,
its PDFs made at run time)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from bench.quality_labels import QUALITY_DIR, Question, load
from mining.names import normalise_name
from storage.corpus.index import CorpusIndex
from storage.dkg.embedded import SEED_DIR, EmbeddedDkg

Gazetteer = list[tuple[str, str, str]]


def make_pdfs(folder: Path, out: Path) -> list[Path]:
    """Copy a held-out folder, turning each `*.pdf.txt` into a real PDF (first line title)."""
    from fpdf import FPDF

    out.mkdir(parents=True, exist_ok=True)
    files = []
    for path in sorted(folder.iterdir()):
        if path.name.endswith(".pdf.txt"):
            lines = path.read_text(encoding="utf-8").splitlines()
            pdf = FPDF()
            pdf.set_title(lines[0].strip())
            pdf.add_page()
            pdf.set_font("Helvetica", size=11)
            body = "\n".join(lines).encode("latin-1", "replace").decode("latin-1")
            pdf.multi_cell(0, 6, body)
            target = out / path.name.removesuffix(".txt")
            pdf.output(str(target))
        else:
            target = out / path.name
            target.write_bytes(path.read_bytes())
        files.append(target)
    return files


def seeded_dkg() -> tuple[EmbeddedDkg, Gazetteer]:
    """The demo DKG in memory, seeded, and its gazetteer."""
    dkg = EmbeddedDkg(None)
    dkg.ensure_seeded(SEED_DIR)
    return dkg, dkg.gazetteer()


def name_resolver(gazetteer: Gazetteer) -> Callable[[str], set[str]]:
    """A label's name -> the UALs of the DKG assets so named (legal forms ignored)."""
    by_name: dict[str, set[str]] = {}
    for label, ual, _ in gazetteer:
        by_name.setdefault(normalise_name(label), set()).add(ual)
    return lambda name: by_name.get(normalise_name(name), set())


def open_set(name: str) -> tuple[EmbeddedDkg, Gazetteer, list[Question], CorpusIndex]:
    """A labeled set ready to ask in-process: DKG, gazetteer, questions and the corpus
    index (shipped documents, plus the held-out ones for that set) in a temporary dir."""
    dkg, gazetteer = seeded_dkg()
    header, questions = load(name, name_resolver(gazetteer))
    tmp = Path(tempfile.mkdtemp(prefix=f"kminer-{name}-"))
    index = CorpusIndex(tmp / "corpus.db", Path("storage/corpus/shipped"))
    if header.get("corpus") == "heldout":
        index.add(make_pdfs(QUALITY_DIR / "heldout" / "docs", tmp / "docs"))
    return dkg, gazetteer, questions, index


__all__ = ["make_pdfs", "name_resolver", "open_set", "seeded_dkg"]
