"""Where the tests find the repository, their recorded fixtures and their artifacts."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
SHIPPED_CORPUS = ROOT / "storage" / "corpus" / "shipped"
