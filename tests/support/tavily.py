"""The recorded Tavily search answer (tests/fixtures/tavily/search.json) a replayed Tavily API
serves."""

from __future__ import annotations

import json

from tests.support.paths import FIXTURES

RECORDED = json.loads((FIXTURES / "tavily/search.json").read_text())
