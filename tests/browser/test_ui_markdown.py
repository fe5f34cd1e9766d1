"""The report and memory notes are shown from their Markdown (markdown.js over markdown-it),
in chromium: structure becomes headings, lists, emphasis and links that open a new tab,
while nothing a model or a document wrote can run or load in the page: raw HTML stays
text, javascript: links are no links, images are not fetched."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser

from api.routes.ui import sign_in_link
from kminer.stack import Stack
from tests.support.ui_pages import collect_errors

RENDER = """async (source) => {
  const { markdown } = await import("/ui/static/markdown.js");
  const box = document.createElement("div");
  box.append(...markdown(source, 4));
  document.body.append(box);
  return {
    headings: [...box.querySelectorAll("h4, h5, h6")].map((e) => [e.tagName, e.textContent]),
    items: [...box.querySelectorAll("li")].map((e) => e.textContent),
    strong: [...box.querySelectorAll("strong")].map((e) => e.textContent),
    links: [...box.querySelectorAll("a")].map((e) => [e.getAttribute("href"), e.target, e.rel]),
    images: box.querySelectorAll("img").length,
    scripts: box.querySelectorAll("script, iframe").length,
    text: box.textContent,
  };
}"""

NOTE = """# Lithium suppliers

Notes of **run 7**, see [the report](https://example.org/report).

## Sources
- Reuters, 2024
- [a trick](javascript:alert(1))
<img src="https://tracker.example/p.png" onerror="window.pwned = 1">
<script>window.pwned = 2</script>
![pixel](https://tracker.example/pixel.png)
"""


async def test_markdown_shows_structure_and_runs_nothing(
    stack: Stack, bearer: Any, browser: Browser
) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    errors = collect_errors(page)
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    token = bearer("admin", "md-tester")["Authorization"].split()[1]
    try:
        await page.goto(sign_in_link(stack.api_url or "", token))
        await page.wait_for_function("typeof window.markdownit === 'function'")
        shown = await page.evaluate(RENDER, NOTE)
        pwned = await page.evaluate("window.pwned")
    finally:
        await context.close()
    assert shown["headings"] == [["H4", "Lithium suppliers"], ["H5", "Sources"]]
    assert shown["strong"] == ["run 7"]
    assert shown["items"][0] == "Reuters, 2024"
    # An image is offered as a link to it, never fetched.
    assert shown["links"] == [
        ["https://example.org/report", "_blank", "noopener noreferrer"],
        ["https://tracker.example/pixel.png", "_blank", "noopener noreferrer"],
    ]
    assert "[a trick](javascript:alert(1))" in shown["text"], "not a link, shown as written"
    assert "<script>window.pwned = 2</script>" in shown["text"], "raw HTML shows as text"
    assert shown["images"] == 0 and shown["scripts"] == 0
    assert pwned is None
    assert not [url for url in fetched if "tracker.example" in url]
    assert errors == [], errors
