"""The chat UI's browser tests' shared parts: Debian's chromium through Playwright (a
fixture), numbered screenshots, console errors, signing in, and the page checks the
tests share (axe-core, sideways scroll, tap targets, contrast)."""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.async_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    async_playwright,
    expect,
)
from playwright.async_api import (
    Error as PlaywrightError,
)

from api.routes.ui import CYTOSCAPE_DIR, UI_DIR, sign_in_link
from tests.support.browser import ensure_chromium
from tests.support.paths import TESTS

ARTIFACTS = Path(os.environ.get("KM_TEST_ARTIFACTS") or TESTS / "artifacts")
AXE = UI_DIR / "vendor" / "node_modules" / "axe-core" / "axe.min.js"
QUESTION = "Which suppliers of lithium carry geopolitical risk?"
RUN_MS = 180_000  # mining, review and publishing on a loaded 2-core machine
VIEWPORTS = [(1280, 800), (390, 844)]
PHONE = 760  # px: at most this wide, the phone layout


@pytest.fixture(scope="session")
def chromium() -> Path:
    path, why = ensure_chromium()
    if path is None:
        pytest.skip(f"no browser for the UI tests: {why}")
    return path


@pytest.fixture
async def browser(chromium: Path) -> AsyncIterator[Browser]:
    assert (CYTOSCAPE_DIR / "cytoscape.min.js").exists(), "run `make install` (Cytoscape.js)"
    async with async_playwright() as pw:
        # --no-sandbox: the tests may run as root, where chromium's sandbox cannot start.
        launched = await pw.chromium.launch(
            executable_path=str(chromium), headless=True, args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            await launched.close()


class Steps:
    """Numbered screenshots of one flow."""

    def __init__(self, page: Page, folder: Path) -> None:
        self.page = page
        self.folder = folder
        self.count = 0
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)

    async def shot(self, name: str, full_page: bool = True) -> None:
        """The whole page, or what the viewport shows (a modal dialog is drawn there)."""
        self.count += 1
        path = self.folder / f"{self.count:02d}-{name}.png"
        await self.page.screenshot(path=path, full_page=full_page)

    async def shot_of(self, element: Locator, name: str) -> None:
        """One element, as it is drawn (again if a live update replaced it meanwhile)."""
        self.count += 1
        for attempt in range(3):
            try:
                await element.screenshot(path=self.folder / f"{self.count:02d}-{name}.png")
                return
            except PlaywrightError:
                if attempt == 2:
                    raise


@asynccontextmanager
async def recorded(*flows: Steps, closing: tuple[BrowserContext, ...]) -> AsyncIterator[None]:
    """Runs a test's flows: when one fails, what each flow's page showed is kept as
    `failure.png` beside its steps; the browser contexts are closed either way."""
    try:
        yield
    except Exception:
        for steps in flows:
            await steps.page.screenshot(path=steps.folder / "failure.png", full_page=True)
        raise
    finally:
        for context in closing:
            await context.close()


def collect_errors(page: Page, allowed: tuple[str, ...] = ()) -> list[str]:
    """Console and page errors, but for the failed loads a flow provokes on purpose
    (an edit the API refuses, a forged token): `allowed` names their statuses."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        where = message.location.get("url", "")
        if "status of 422" in message.text and where.endswith("/decisions"):
            return
        if any(f"status of {status}" in message.text for status in allowed):
            return
        errors.append(f"console error: {message.text} ({where})")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    return errors


def card(page: Page, candidate_id: str) -> Any:
    """A candidate's card in the workspace."""
    return page.locator(f'.card[data-candidate-id="{candidate_id}"]')


async def pending_ids(page: Page) -> list[str]:
    """The candidate ids of the cards still waiting for a decision, in order."""
    ids = await page.locator(".card.card-pending").evaluate_all(
        "cards => cards.map(c => c.dataset.candidateId)"
    )
    return [str(i) for i in ids]


async def sign_in(page: Page, api_url: str, token: str, who: str) -> None:
    await page.goto(sign_in_link(api_url, token))
    await expect(page.locator("#who")).to_have_text(f"Signed in as {who}")


async def axe_violations(page: Page, context: str = "body") -> list[str]:
    """Serious and critical axe-core violations of what the page shows now."""
    assert AXE.exists(), "run `make install` (axe-core, pinned in api/ui/vendor)"
    if not await page.evaluate("typeof window.axe === 'object'"):
        await page.add_script_tag(path=str(AXE))
    found = await page.evaluate(
        """async (context) => {
          const result = await axe.run(document.querySelector(context),
            { resultTypes: ["violations"] });
          return result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.impact} ${v.id}: ${v.help} — ` +
              v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
        }""",
        context,
    )
    return [str(v) for v in found]


async def sideways_overflow(page: Page) -> list[str]:
    """What sticks out past the right edge of the viewport (none: no sideways scroll)."""
    found = await page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          if (document.scrollingElement.scrollWidth <= width) return [];
          const out = [];
          for (const el of document.body.querySelectorAll("*")) {
            const box = el.getBoundingClientRect();
            if (box.right <= width + 0.5 || !box.width) continue;
            if ([...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5)) {
              continue;  // its child sticks out: name the child
            }
            out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.right)}px`);
          }
          return out.length ? out.slice(0, 5) : ["(the page, by its own width)"];
        }"""
    )
    return [str(v) for v in found]


async def small_targets(page: Page, root: str = "body", minimum: int = 24) -> list[str]:
    """Visible controls under `root` smaller than `minimum` px either way (buttons and
    fields must also be 44 px high on a phone; links inside a sentence are exempt)."""
    found = await page.evaluate(
        """([root, minimum, phone]) => {
          const out = [];
          const narrow = window.innerWidth <= phone;
          for (const el of document.querySelector(root).querySelectorAll(
              "button, a[href], input, select, summary, textarea")) {
            const box = el.getBoundingClientRect();
            if (!box.width || !box.height || el.closest("[hidden]")) continue;
            if (getComputedStyle(el).visibility === "hidden") continue;
            if (el.closest(".sentences li, blockquote, .cite")) continue;  // inline in text
            const control = "button:not(.link):not(.cite-chip), select, input[type=text]";
            const tall = narrow && el.matches(control) ? 44 : minimum;
            if (box.height < tall - 0.5 || box.width < minimum - 0.5) {
              const name = el.innerText || el.getAttribute("aria-label") || el.id;
              const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
              out.push(`${el.tagName.toLowerCase()} "${name.trim().slice(0, 30)}" ${size}`);
            }
          }
          return out;
        }""",
        [root, minimum, PHONE],
    )
    return [str(v) for v in found]


async def focus_ring_contrast(page: Page) -> float:
    """Contrast of the focused element's outline against the page behind it."""
    ratio = await page.evaluate(
        """() => {
          const rgb = (text) => text.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
          const lum = ([r, g, b]) => {
            const c = [r, g, b].map((v) => v / 255)
              .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
            return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
          };
          const el = document.activeElement;
          const style = getComputedStyle(el);
          if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) return 0;
          let behind = el.parentElement;
          let bg = "rgba(0, 0, 0, 0)";
          while (behind) {
            bg = getComputedStyle(behind).backgroundColor;
            if (!bg.startsWith("rgba(0, 0, 0, 0)")) break;
            behind = behind.parentElement;
          }
          if (!behind) bg = "rgb(255, 255, 255)";
          const [a, b] = [lum(rgb(style.outlineColor)), lum(rgb(bg))].sort((x, y) => y - x);
          return (a + 0.05) / (b + 0.05);
        }"""
    )
    return float(ratio)


async def focused(page: Page) -> dict[str, Any]:
    """What has the focus: its tag, id, classes and text."""
    found = await page.evaluate(
        """() => { const el = document.activeElement;
          return { tag: el.tagName.toLowerCase(), id: el.id, className: String(el.className),
                   text: (el.innerText || "").slice(0, 60) }; }"""
    )
    return dict(found)


def contrast(first: tuple[int, ...], second: tuple[int, ...]) -> float:
    """WCAG contrast ratio of two sRGB colours."""

    def luminance(rgb: tuple[int, ...]) -> float:
        linear = [
            v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
            for v in (c / 255 for c in rgb[:3])
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def meter_contrast(meter: Locator) -> float:
    """Contrast of a drawn meter's bar against its empty track, read from its pixels."""
    value = float(await meter.get_attribute("value") or 0)
    assert 0.1 < value < 0.9, f"a meter half filled is needed, not {value}"
    image = Image.open(io.BytesIO(await meter.screenshot())).convert("RGB")
    width, height = image.size
    bar = image.getpixel((int(width * value / 2), height // 2))
    track = image.getpixel((int(width * (1 + value) / 2), height // 2))
    return contrast(tuple(bar), tuple(track))  # type: ignore[arg-type]
