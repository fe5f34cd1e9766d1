"""The chat UI in a real browser (Debian's chromium through Playwright) against the real
app, worker and Temporal dev server: tags, a question, the workspace filling live, an
edit with invalid then valid JSON-LD, an approval, a rejection with a reason, the rest
approved as a selection, the published UALs, runs and memory.

Screenshots of every step go to `tests/artifacts/ui-<width>x<height>/` (gitignored;
`KM_TEST_ARTIFACTS` moves the folder). The stack's API runs on this test's event loop,
so the browser is driven with Playwright's async API.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from api.routes.ui import sign_in_link
from kminer.stack import Stack
from tests.support.ui_pages import (
    ARTIFACTS,
    QUESTION,
    RUN_MS,
    VIEWPORTS,
    Steps,
    card,
    collect_errors,
    pending_ids,
    recorded,
)

RUN_SECONDS = RUN_MS
# The node labels the graph draws (Cytoscape's instance, registered on its container) and
# the pairs of them that overlap on screen.
LABELS_DRAWN = """(el) => {
  const cy = el._cyreg.cy;
  const shown = cy.nodes().filter((n) => !n.hasClass("quiet"));
  const boxes = shown.map((n) => [n.data("label"), n.renderedBoundingBox(
    { includeNodes: false, includeEdges: false, includeLabels: true })]);
  const overlaps = [];
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    if (p.x1 < q.x2 && q.x1 < p.x2 && p.y1 < q.y2 && q.y1 < p.y2) overlaps.push([a, b]);
  }));
  return { shown: shown.length, quiet: cy.nodes(".quiet").length, overlaps };
}"""


async def choose_tags_and_ask(page: Page, steps: Steps) -> None:
    folded = page.get_by_role("button", name="Tags: none")
    if await folded.is_visible():  # a phone folds the tag bar away
        await folded.click()
    await page.get_by_role("button", name="#supply_chain").click()
    await page.get_by_role("button", name="#general_risk").click()
    custom = page.get_by_label("Custom tag")
    await custom.fill("bad tag!")
    await expect(page.locator("#custom-tag-help")).to_contain_text("may hold only")
    await expect(custom).to_have_attribute("aria-invalid", "true")
    await expect(page.get_by_role("button", name="Add tag")).to_be_disabled()
    await custom.fill("#Lithium_Watch")
    await page.get_by_role("button", name="Add tag").click()
    watch = page.get_by_role("button", name="#lithium_watch", exact=True)
    await expect(watch).to_have_attribute("aria-pressed", "true")
    await watch.click()  # and off again: the run asks with the two preset tags
    await expect(watch).to_have_attribute("aria-pressed", "false")
    for tag in ("#supply_chain", "#general_risk"):
        await expect(page.get_by_role("button", name=tag)).to_have_attribute("aria-pressed", "true")
    await steps.shot("tags-selected")
    await page.get_by_label("Your question").fill(QUESTION)
    await page.get_by_role("button", name="Send").click()
    run = page.locator("article.run").last
    await expect(run.locator(".tags")).to_have_text("#general_risk #supply_chain")


async def watch_workspace(page: Page, steps: Steps) -> None:
    panel = page.locator("#workspace")
    strip = page.locator("#ws-strip")  # a phone: a progress strip opens the panel as a drawer
    shown = page.locator("#workspace:visible, #ws-strip:visible").first
    await expect(shown).to_be_visible(timeout=30_000)
    phone = await strip.is_visible()
    if phone:
        await strip.click()
    await expect(panel.locator(".todos li").first).to_be_visible(timeout=RUN_SECONDS)
    await steps.shot("workspace-live")
    if phone:
        await page.get_by_role("button", name="Close workspace").click()
    status = page.locator("article.run .run-status").last
    await expect(status).to_contain_text("Waiting for review", timeout=RUN_SECONDS)
    await expect(page.locator("article.run .answer h3")).to_have_text("Answer")
    assert await page.locator(".card").count() >= 3
    await steps.shot("review-waiting")
    # The workspace hides and shows on request.
    if phone:
        await strip.click()
        await expect(panel).to_be_visible()
    else:
        await page.get_by_role("button", name="Hide Workspace").click()
        await expect(panel).to_be_hidden()
        await page.get_by_role("button", name="Show Workspace").click()
        await expect(panel).to_be_visible()
    await expect(panel.locator(".files button").first).to_be_visible()
    await expect(panel.locator(".report")).not_to_be_empty()
    first_file = panel.locator(".files button").first
    await first_file.click()
    viewer = page.locator("#viewer")
    await expect(viewer.locator(".file-content")).not_to_be_empty()
    await steps.shot("research-file", full_page=False)
    await viewer.get_by_role("button", name="Close").click()
    if phone:
        await page.get_by_role("button", name="Close workspace").click()
        await expect(panel).to_be_hidden()


async def export_answer_and_asset(page: Page, steps: Steps) -> None:
    """The answer copies and downloads as Markdown with its citations; a card downloads
    its candidate's JSON-LD; the report shows as Markdown (its per-candidate lines a list)."""
    run = page.locator("article.run").last
    answer = run.locator(".answer")
    await answer.get_by_role("button", name="Copy answer").click()
    await expect(answer.locator(".export-status")).to_have_text("Copied answer.")
    copied = await page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(f"# {QUESTION}\n"), copied[:200]
    assert "\n- " in copied and "published" in copied, copied
    async with page.expect_download() as got:
        await answer.get_by_role("button", name="Download answer").click()
    download = await got.value
    assert download.suggested_filename.endswith(".md")
    assert (await download.path()).read_text() == copied
    first = run.locator(".card").first
    name = await first.locator("h4").inner_text()
    async with page.expect_download() as got:
        await first.get_by_role("button", name=f"Download JSON-LD of {name}").click()
    asset = json.loads((await (await got.value).path()).read_text())
    assert asset["@type"] and name in (asset.get("name"), asset.get("@id")), asset
    await steps.shot("exported")
    report = page.locator("#workspace .report")
    assert await report.locator("li").count() >= 1, await report.inner_html()


async def review_notice_leads_to_the_run(page: Page, steps: Steps) -> None:
    """In any view, a notice (and the tab's title) says a run waits for the reviewer's
    review; its button brings them to the run's first pending candidate."""
    notice = page.locator("#review-notice")
    await expect(notice).to_contain_text(f"Waiting for your review: “{QUESTION}”")
    assert re.match(r"\(\d+ to review\) Knowledge Miner$", await page.title())
    await page.get_by_role("button", name="Runs", exact=True).click()
    await expect(page.locator("#runs-view")).to_be_visible()
    await expect(notice).to_be_visible()
    await steps.shot("review-notice")
    await notice.get_by_role("button", name="Review now").click()
    await expect(page.locator("#chat-view")).to_be_visible()
    await expect(page.locator("article.card:focus")).to_have_class(re.compile("card-pending"))


async def see_graph(page: Page, steps: Steps) -> None:
    await page.get_by_role("button", name="Show graph").click()
    graph = page.locator("article.run .graph")
    await expect(graph.locator("canvas").first).to_be_attached()
    label = await graph.get_attribute("aria-label") or ""
    assert "nodes" in label and " 0 nodes" not in label, label
    labels = await graph.evaluate(LABELS_DRAWN)
    assert labels["shown"] >= 1 and labels["overlaps"] == [], labels
    await graph.screenshot(path=steps.folder / "graph-alone.png")
    await steps.shot("graph")
    await page.get_by_role("button", name="Show cards").click()


async def edit_one(page: Page, steps: Steps, candidate_id: str) -> None:
    await card(page, candidate_id).get_by_role("button", name="Edit").click()
    editor = page.get_by_label("JSON-LD of the asset")
    errors = page.locator("#edit-errors")
    send = page.get_by_role("button", name="Send edit")
    asset = json.loads(await editor.input_value())
    await editor.fill(json.dumps(asset)[:-3])
    await expect(errors).to_contain_text("Not valid JSON")
    await expect(send).to_be_disabled()
    await expect(editor).to_have_attribute("aria-invalid", "true")
    await steps.shot("edit-invalid-json", full_page=False)
    untyped = {k: v for k, v in asset.items() if k != "@type"}
    await editor.fill(json.dumps(untyped, indent=2))
    await expect(errors).to_contain_text("Missing @type")
    await expect(send).to_be_disabled()
    # Passes the editor's checks, but the API's JSON-LD rules refuse it: its 422 is shown.
    await editor.fill(json.dumps({**asset, "@context": "https://example.org/vocab"}, indent=2))
    await expect(send).to_be_enabled()
    await send.click()
    await expect(errors).to_contain_text("The API refused it")
    await expect(errors).to_contain_text("@context")
    await steps.shot("edit-refused-by-api", full_page=False)
    await editor.fill(json.dumps({**asset, "name": f"{asset['name']} (reviewed)"}, indent=2))
    await expect(errors).to_contain_text("Valid JSON-LD")
    await send.click()
    await expect(page.locator("#edit-dialog")).to_be_hidden()
    await expect(card(page, candidate_id).locator(".outcome")).to_contain_text("Edit")
    await steps.shot("edited")


async def approve_and_reject(page: Page, steps: Steps, approve: str, reject: str) -> None:
    await card(page, approve).get_by_role("button", name="Approve").click()
    await expect(card(page, approve).locator(".status")).to_have_text("approved")
    await expect(card(page, approve).locator(".outcome")).to_contain_text("Approved")
    await steps.shot("approved")
    await card(page, reject).get_by_role("button", name="Reject").click()
    dialog = page.locator("#reject-dialog")
    await dialog.get_by_role("button", name="Reject").click()
    await expect(dialog.locator("#reject-errors")).to_contain_text("Say why")
    await dialog.get_by_label("Reason").fill("The source is an opinion piece, not a report.")
    await dialog.get_by_role("button", name="Reject").click()
    await expect(dialog).to_be_hidden()
    await expect(card(page, reject).locator(".status")).to_have_text("rejected")
    await steps.shot("rejected")


async def decide_rest_and_see_published(page: Page, steps: Steps) -> None:
    await page.get_by_label("Select all pending").check()
    await page.get_by_role("button", name="Approve selected").click()
    await expect(page.locator(".card.card-pending")).to_have_count(0)
    status = page.locator("article.run .run-status").last
    await expect(status).to_contain_text("completed", timeout=RUN_SECONDS)
    await expect(page.locator("#review-notice")).to_be_hidden()
    assert await page.title() == "Knowledge Miner", "nothing left to review"
    published = page.locator("article.run .published-list .ual")
    await expect(published.first).to_be_visible()
    ual = await published.first.inner_text()
    assert ual.startswith("did:dkg:")
    await steps.shot("published")
    await published.first.click()
    viewer = page.locator("#viewer")
    await expect(viewer.locator(".ual-line")).to_have_text(ual)
    await expect(viewer.locator(".jsonld")).to_contain_text("@context")
    await steps.shot("asset-view", full_page=False)
    await viewer.get_by_role("button", name="Close").click()


async def runs_and_memory(page: Page, steps: Steps, run_id: str) -> None:
    await page.get_by_role("button", name="Runs", exact=True).click()
    await expect(page.locator("#runs-list")).to_contain_text(run_id)
    await steps.shot("runs")
    await page.get_by_role("button", name=f"Open run {run_id}").click()
    await expect(page.locator(f'article.run[data-run-id="{run_id}"]')).to_be_visible()
    await page.get_by_role("button", name="Memory", exact=True).click()
    await page.locator("#memory-view").get_by_label("Tag", exact=True).fill("supply_chain")
    await page.get_by_role("button", name="Show notes").click()
    note = page.locator(".note-card").first
    await expect(note).to_contain_text("version")
    await note.get_by_role("button", name="Edit note").click()
    editor = note.locator("textarea")
    await editor.fill((await editor.input_value()) + "\n- reviewed in the chat UI\n")
    await note.get_by_role("button", name="Save note").click()
    await expect(page.locator("#memory-message")).to_contain_text("Saved")
    # The note is Markdown: the line added is an item of a list.
    saved = page.locator(".note-card").first.locator(".note-content li")
    await expect(saved.filter(has_text="reviewed in the chat UI")).to_have_count(1)
    await steps.shot("memory")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
async def test_ask_watch_review_and_publish_in_the_browser(
    stack: Stack, bearer: Any, browser: Browser, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    context = await browser.new_context(viewport={"width": width, "height": height})
    await context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = await context.new_page()
    errors = collect_errors(page)
    steps = Steps(page, ARTIFACTS / f"ui-{width}x{height}")
    token = bearer("admin", "ui-tester")["Authorization"].split()[1]
    async with recorded(steps, closing=(context,)):
        await page.goto(sign_in_link(stack.api_url or "", token))
        await expect(page.locator("#who")).to_have_text("Signed in as ui-tester (admin)")
        assert "token=" not in page.url, "the token must leave the address bar"
        await steps.shot("signed-in")
        await choose_tags_and_ask(page, steps)
        await watch_workspace(page, steps)
        await export_answer_and_asset(page, steps)
        await review_notice_leads_to_the_run(page, steps)
        await see_graph(page, steps)
        run_id = await page.locator("article.run").last.get_attribute("data-run-id") or ""
        first, second, third = (await pending_ids(page))[:3]
        await edit_one(page, steps, first)
        await approve_and_reject(page, steps, second, third)
        await decide_rest_and_see_published(page, steps)
        await runs_and_memory(page, steps, run_id)
    assert errors == [], errors


async def test_a_miner_asks_without_tags_and_cannot_decide(
    stack: Stack, settings: Any, browser: Browser
) -> None:
    from api.auth import TokenIssuer, load_secret

    issuer = TokenIssuer(load_secret(settings.data_dir))
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    errors = collect_errors(page)
    steps = Steps(page, ARTIFACTS / "ui-miner")
    try:
        await page.goto(sign_in_link(stack.api_url or "", issuer.mint("mia", "miner")))
        await expect(page.locator("#who")).to_have_text("Signed in as mia (miner)")
        await expect(page.locator(".tag-summary")).to_contain_text("global thread")
        await page.get_by_label("Your question").fill(QUESTION)
        await page.get_by_role("button", name="Send").click()
        status = page.locator("article.run .run-status").last
        await expect(status).to_contain_text("Waiting for review", timeout=RUN_SECONDS)
        await expect(page.locator("#workspace")).to_contain_text("thread global")
        assert await page.locator(".card").count() >= 1
        await expect(page.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
        await expect(page.get_by_role("button", name="Approve selected")).to_be_hidden()
        await expect(page.locator("#review-notice")).to_be_hidden()  # not theirs to give
        await steps.shot("miner-waits-for-a-reviewer")
    finally:
        await context.close()
    assert errors == [], errors

    expired = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await expired.new_page()
    try:
        await page.goto(sign_in_link(stack.api_url or "", issuer.mint("mia", "miner", -60)))
        await expect(page.locator("#signin-problem")).to_contain_text("token expired")
        await page.screenshot(path=steps.folder / "expired-token.png")
    finally:
        await expired.close()
