"""One run in the chat UI, reviewed on a desktop (1280×800) while a phone (390×844)
follows it: the composer stays pinned, the run has an address that restores it, its
elapsed time shows, citations name what they cite with the UAL one click away, the graph
has a legend, zoom and nodes the keyboard reaches; offline, review waits and says so; an
unchanged edit is not sent, a refused one says why once, as an error; focus comes back
after every dialog and after Runs → Open; the answer says what was published; a memory
write opens its note. On the phone: a progress strip and a workspace drawer, no sideways
scroll, big enough targets, a dialog title that fits, paths that wrap between words.
axe-core finds nothing serious on any of these views; a second run is cancelled."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, expect

from kminer.stack import Stack
from tests.support.ui_pages import (
    ARTIFACTS,
    QUESTION,
    RUN_MS,
    Steps,
    axe_violations,
    card,
    collect_errors,
    focused,
    meter_contrast,
    pending_ids,
    recorded,
    sideways_overflow,
    sign_in,
    small_targets,
)

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


async def no_serious_axe(page: Page, view: str) -> None:
    assert await axe_violations(page) == [], f"axe-core on {view}"


async def open_page(browser: Browser, size: dict[str, int]) -> tuple[BrowserContext, Page]:
    context = await browser.new_context(viewport=size)  # type: ignore[arg-type]
    return context, await context.new_page()


async def test_a_run_reviewed_on_a_desktop_and_followed_on_a_phone(
    stack: Stack, bearer: Any, browser: Browser
) -> None:
    token = bearer("admin", "ada")["Authorization"].split()[1]
    base = stack.api_url or ""
    desk_context, desk = await open_page(browser, DESK)
    phone_context, phone = await open_page(browser, PHONE)
    errors = collect_errors(desk) + collect_errors(phone)
    steps = Steps(desk, ARTIFACTS / "ui-run-1280x800")
    phone_steps = Steps(phone, ARTIFACTS / "ui-run-390x844")
    async with recorded(steps, phone_steps, closing=(desk_context, phone_context)):
        await sign_in(desk, base, token, "ada (admin)")
        run_id = await ask(desk, steps)
        await sign_in(phone, base, token, "ada (admin)")
        await phone.goto(f"{base}/#run={run_id}")
        await phone_follows_the_run(phone, phone_steps)
        await wait_for_review(desk, steps)
        await citations_by_name(desk)
        await graph_by_keyboard(desk, steps)
        await offline_review_waits(desk_context, desk, steps)
        first, second, third = (await pending_ids(desk))[:3]
        await unchanged_and_refused_edits(desk, steps, first)
        await reject_by_keyboard(desk, steps, second)
        await approve_the_rest_and_read_the_answer(desk, steps)
        await memory_write_opens_its_note(desk, steps)
        await runs_list_and_reload(desk, steps, run_id)
        await phone_after_review(phone, phone_steps)
        await cancel_a_run(phone, phone_steps)
    assert errors == [], errors


async def ask(page: Page, steps: Steps) -> str:
    await page.get_by_role("button", name="#supply_chain").click()
    await page.get_by_label("Your question").fill(QUESTION)
    await page.get_by_role("button", name="Send").click()
    run = page.locator("article.run").last
    await expect(run).to_be_visible()
    run_id = await run.get_attribute("data-run-id") or ""
    assert page.url.endswith(f"#run={run_id}"), page.url
    await expect(run.locator(".run-clock")).to_contain_text("elapsed", timeout=30_000)
    await expect(run.get_by_role("button", name="Cancel run")).to_be_visible()
    await steps.shot("asked")
    return run_id


async def phone_follows_the_run(page: Page, steps: Steps) -> None:
    """While the run mines, the strip at the top of the screen says how it goes."""
    strip = page.locator("#ws-strip")
    await expect(strip).to_be_visible(timeout=30_000)
    await page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = await strip.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    await expect(strip).to_contain_text(re.compile(r"[A-Z]+ \d/7"))
    await steps.shot("strip-during-the-run", full_page=False)
    await strip.click()
    drawer = page.locator("#workspace")
    await expect(drawer).to_be_visible()
    await expect(page.locator("#ws-title")).to_be_focused()
    box = await drawer.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
    # The drawer is the screen's height and scrolls inside: its end can be reached.
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1, box
    await steps.shot("drawer-during-the-run", full_page=False)
    await page.keyboard.press("Escape")
    await expect(drawer).to_be_hidden()
    await expect(strip).to_be_focused()


async def wait_for_review(page: Page, steps: Steps) -> None:
    status = page.locator("article.run .run-status").last
    await expect(status).to_contain_text("Waiting for review", timeout=RUN_MS)
    assert await page.locator(".card").count() >= 3
    # However long the chat has grown, the composer is on screen.
    await page.evaluate("window.scrollTo(0, 0)")
    composer = await page.locator("#composer").bounding_box()
    assert composer is not None and composer["y"] + composer["height"] <= DESK["height"] + 1
    assert composer["y"] >= 0
    await steps.shot("review-waiting", full_page=False)
    await no_serious_axe(page, "the chat with a run waiting for review")
    meters = page.locator(".card meter")
    values = [float(v) for v in await meters.evaluate_all("ms => ms.map(m => m.value)")]
    # One meter of each colour band (low, middling, high: Chrome's own yellow was 1.5:1).
    bands = [(0.1, 0.5), (0.5, 0.7), (0.7, 0.9)]
    picked = [next((i for i, v in enumerate(values) if lo <= v < hi), None) for lo, hi in bands]
    assert [i for i in picked if i is not None], values
    for index in (i for i in picked if i is not None):
        ratio = await meter_contrast(meters.nth(index))
        assert ratio >= 3, f"confidence bar {values[index]} against its track: {ratio:.2f}"


async def citations_by_name(page: Page) -> None:
    ids = set(await pending_ids(page)) | set(
        await page.locator(".card").evaluate_all("cs => cs.map(c => c.dataset.candidateId)")
    )
    chips = page.locator(".answer .citations .cite-chip")
    texts = [t.strip() for t in await chips.all_inner_texts()]
    assert texts, "the answer cites nothing"
    assert not set(texts) & ids, texts
    assert not [t for t in texts if t.startswith("did:dkg:")], texts
    asset_chip = page.locator('.answer .cite-chip[aria-label*="did:dkg:"]').first
    if await asset_chip.count():
        label = await asset_chip.get_attribute("aria-label") or ""
        ual = re.search(r"did:dkg:\S+", label)
        assert ual is not None
        await asset_chip.click()
        viewer = page.locator("#viewer")
        await expect(viewer.locator(".ual-line")).to_have_text(ual.group(0).rstrip(","))
        await viewer.get_by_role("button", name="Close").click()
        await expect(asset_chip).to_be_focused()


async def graph_by_keyboard(page: Page, steps: Steps) -> None:
    await page.get_by_role("button", name="Show graph").click()
    run = page.locator("article.run").last
    await expect(run.locator(".legend")).to_contain_text("New entity")
    await run.get_by_role("button", name="Zoom in").click()
    await run.get_by_role("button", name="Fit").click()
    await run.locator(".graph").evaluate("g => g.scrollIntoView({ block: 'center' })")
    await steps.shot_of(run.locator(".graph"), "graph")
    await no_serious_axe(page, "the graph")
    summary = run.locator(".graph-nodes summary")
    await summary.focus()
    await page.keyboard.press("Enter")
    first = run.locator(".graph-nodes button").first
    await page.keyboard.press("Tab")
    await expect(first).to_be_focused()
    await page.keyboard.press("Enter")
    viewer = page.locator("#viewer")
    opened_asset = await viewer.is_visible()
    if opened_asset:
        await page.keyboard.press("Escape")
        await expect(first).to_be_focused()
        await page.get_by_role("button", name="Show cards").click()
    else:  # a new entity: its card, in the cards view
        assert (await focused(page))["className"].startswith("card"), await focused(page)
    await expect(page.get_by_role("button", name="Show graph")).to_be_visible()


async def offline_review_waits(context: BrowserContext, page: Page, steps: Steps) -> None:
    approve = page.locator(".card.card-pending").first.get_by_role("button", name="Approve")
    await expect(approve).to_be_enabled()
    await context.set_offline(True)
    connection = page.locator("article.run .connection").last
    await expect(connection).to_contain_text("Offline", timeout=5_000)
    await expect(connection.get_by_role("button", name="Retry now")).to_be_visible()
    await expect(approve).to_be_disabled()
    await expect(page.get_by_role("button", name="Approve selected")).to_be_disabled()
    await steps.shot("offline", full_page=False)
    await context.set_offline(False)
    await expect(connection).to_be_hidden(timeout=20_000)
    await expect(approve).to_be_enabled()


async def unchanged_and_refused_edits(page: Page, steps: Steps, candidate_id: str) -> None:
    edit = card(page, candidate_id).get_by_role("button", name="Edit")
    await edit.click()
    dialog = page.locator("#edit-dialog")
    await expect(dialog.locator("#edit-errors")).to_contain_text("Unchanged")
    await expect(dialog.get_by_role("button", name="Send edit")).to_be_disabled()
    await page.keyboard.press("Escape")
    await expect(dialog).to_be_hidden()
    await expect(edit).to_be_focused()
    await expect(card(page, candidate_id).locator(".badge", has_text="edited")).to_have_count(0)
    # An edit that re-validation does not accept: no evidence, one source at most.
    await edit.click()
    editor = page.get_by_label("JSON-LD of the asset")
    asset = json.loads(await editor.input_value())
    asset["provenance"] = {"sources": []}
    asset["name"] = f"{asset.get('name', '')} (unsupported)"
    await editor.fill(json.dumps(asset, indent=2))
    await page.get_by_role("button", name="Send edit").click()
    await expect(dialog).to_be_hidden()
    the_card = card(page, candidate_id)
    await expect(the_card.locator(".status")).to_have_text("pending", timeout=RUN_MS)
    note = the_card.locator(".note")
    await expect(note).to_have_class("note error")
    await expect(note).to_contain_text("re-validation")
    await expect(the_card.locator(".outcome")).to_be_empty()
    text = await the_card.inner_text()
    assert text.count("re-validation") == 1, text
    await steps.shot_of(the_card, "edit-refused-by-revalidation")


async def reject_by_keyboard(page: Page, steps: Steps, candidate_id: str) -> None:
    reject = card(page, candidate_id).get_by_role("button", name="Reject")
    await reject.focus()
    await page.keyboard.press("Enter")
    await expect(page.get_by_label("Reason")).to_be_focused()
    await page.keyboard.type("The source is an opinion piece, not a report.")
    await page.keyboard.press("Tab")
    await expect(page.locator("#reject-send")).to_be_focused()
    await page.keyboard.press("Enter")
    await expect(page.locator("#reject-dialog")).to_be_hidden()
    await expect(card(page, candidate_id).locator(".status")).to_have_text("rejected")
    now = await focused(page)
    assert now["tag"] == "article" and "card" in now["className"], now
    await steps.shot_of(card(page, candidate_id), "rejected-focus-on-its-card")


async def approve_the_rest_and_read_the_answer(page: Page, steps: Steps) -> None:
    await page.get_by_label("Select all pending").check()
    await page.get_by_role("button", name="Approve selected").click()
    await expect(page.locator(".card.card-pending")).to_have_count(0)
    run = page.locator("article.run").last
    await expect(run.locator(".run-status")).to_contain_text("completed", timeout=RUN_MS)
    await expect(run.locator(".published-list .ual").first).to_be_visible()
    publication = run.locator(".answer .publication")
    await expect(publication).to_contain_text("published to the DKG")
    assert "unless a reviewer approves" not in await run.locator(".answer").inner_text()
    await expect(run.locator(".run-clock")).to_contain_text("took")
    await expect(run.get_by_role("button", name="Cancel run")).to_be_hidden()
    await steps.shot("published")


async def memory_write_opens_its_note(page: Page, steps: Steps) -> None:
    writes = page.locator("#workspace .ws-section", has_text="Memory writes").locator("button")
    path = (await writes.first.inner_text()).replace("\n", "")
    tag, note = path.split("/")[3], path.split("/")[4].removesuffix(".md")
    await writes.first.click()
    await expect(page.locator("#memory-view")).to_be_visible()
    await expect(page.locator(".note-card")).to_have_count(1)
    await expect(page.locator(".note-card h3")).to_have_text(path)
    await expect(page.locator("#memory-message")).to_contain_text(f"Note {note} of #{tag}")
    await steps.shot("memory-note")
    await no_serious_axe(page, "memory")
    await page.go_back()
    await expect(page.locator("#chat-view")).to_be_visible()


async def runs_list_and_reload(page: Page, steps: Steps, run_id: str) -> None:
    await page.get_by_role("button", name="Runs", exact=True).click()
    row = page.locator("#runs-list li").first
    await expect(row.locator(".run-question")).to_have_text(QUESTION)
    await no_serious_axe(page, "runs")
    await steps.shot("runs")
    await page.get_by_role("button", name=f"Open run {run_id}").click()
    article = page.locator(f'article.run[data-run-id="{run_id}"]')
    await expect(article).to_be_focused()
    assert page.url.endswith(f"#run={run_id}")
    await page.reload()
    await expect(article.locator(".question")).to_have_text(QUESTION)
    await expect(article.locator(".run-status")).to_contain_text("completed")
    await steps.shot("reloaded")


async def phone_after_review(page: Page, steps: Steps) -> None:
    await page.reload()
    run = page.locator("article.run").last
    await expect(run.locator(".run-status")).to_contain_text("completed", timeout=30_000)
    assert await sideways_overflow(page) == [], "the chat scrolls sideways"
    assert await small_targets(page, "main") == [], "chat: controls too small to tap"
    await no_serious_axe(page, "the chat on a phone")
    await steps.shot("chat-on-a-phone")
    await page.locator("#ws-strip").click()
    drawer = page.locator("#workspace")
    await expect(drawer).to_be_visible()
    broken = await drawer.locator(".path").evaluate_all(
        """paths => paths.flatMap((path) => {
          const words = [];
          for (const node of path.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            if (range.getClientRects().length > 1) words.push(node.textContent);
          }
          return words;
        })"""
    )
    assert broken == [], f"paths broken mid-word: {broken}"
    assert await small_targets(page, "#workspace") == []
    await steps.shot("drawer-after-review", full_page=False)
    await page.get_by_role("button", name="Close workspace").click()
    await run.locator(".published-list .ual").first.click()
    title = page.locator("#viewer-title")
    await expect(page.locator("#viewer .ual-line")).to_be_visible()
    fits = await title.evaluate(
        """t => { const d = t.closest('dialog').getBoundingClientRect();
                  const b = t.getBoundingClientRect();
                  return t.scrollWidth <= t.clientWidth && b.right <= d.right; }"""
    )
    assert fits, "the dialog's title is clipped"
    line = page.locator("#viewer .ual-line code")
    assert await line.evaluate("c => c.scrollWidth <= c.closest('dialog').clientWidth")
    await steps.shot("asset-dialog-on-a-phone", full_page=False)
    await page.keyboard.press("Escape")
    for view in ("Runs", "Memory"):
        await page.get_by_role("button", name=view, exact=True).click()
        assert await sideways_overflow(page) == [], f"{view} scrolls sideways"
        assert await small_targets(page, "main") == [], f"{view}: controls too small"
    await page.locator("#memory-tag").fill("supply_chain")
    await page.get_by_role("button", name="Show notes").click()
    await expect(page.locator(".note-card").first).to_be_visible()
    assert await sideways_overflow(page) == [], "memory notes scroll sideways"
    await steps.shot("memory-on-a-phone")


async def cancel_a_run(page: Page, steps: Steps) -> None:
    await page.get_by_role("button", name="Chat", exact=True).click()
    await page.get_by_label("Your question").fill("Which refiners process cobalt?")
    await page.get_by_role("button", name="Send").click()
    run = page.locator("article.run").last
    await run.get_by_role("button", name="Cancel run").click()
    await expect(run.locator(".run-status")).to_contain_text(
        re.compile("cancel", re.IGNORECASE), timeout=60_000
    )
    await expect(run.get_by_role("button", name="Cancel run")).to_be_hidden(timeout=60_000)
    await steps.shot("cancelled", full_page=False)
