"""The chat UI before any run, in chromium at 1280×800 and 390×844: the token is checked
by the API before the app opens (a forged one is refused in words, a `#token=` link
pasted into an open tab signs in without a reload); the tag check refuses what the API
refuses and custom tags can be removed; the runs list's filters answer for themselves;
Back moves between the app's views; the keyboard alone reaches everything, with a focus
ring that can be seen; axe-core finds nothing serious; a phone never scrolls sideways
and its controls are big enough to tap."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from api.routes.ui import sign_in_link
from kminer.stack import Stack
from tests.support.ui_pages import (
    ARTIFACTS,
    VIEWPORTS,
    Steps,
    axe_violations,
    collect_errors,
    focus_ring_contrast,
    focused,
    recorded,
    sideways_overflow,
    sign_in,
    small_targets,
)

# Tags the API refuses (contracts/run.py normalize_tag) that a plain [a-z0-9_] check lets by.
REFUSED_TAGS = ["a__b", "_lead", "trail_"]


async def unfold_tags(page: Page) -> None:
    """A phone folds the tag bar away behind one button."""
    toggle = page.locator("#tags-toggle")
    if await toggle.is_visible() and await toggle.get_attribute("aria-expanded") == "false":
        await toggle.click()


async def check_layout(page: Page, view: str) -> None:
    assert await sideways_overflow(page) == [], f"{view} scrolls sideways"
    assert await small_targets(page) == [], f"{view}: controls too small to tap"
    assert await axe_violations(page) == [], f"{view}: axe-core"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
async def test_sign_in_is_checked_by_the_api_and_a_pasted_link_signs_in(
    stack: Stack, bearer: Any, browser: Browser, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    errors = collect_errors(page, allowed=("401",))
    steps = Steps(page, ARTIFACTS / f"ui-signin-{width}x{height}")
    base = stack.api_url or ""
    token = bearer("reviewer", "rita")["Authorization"].split()[1]
    head, body, _signature = token.split(".")
    forged = f"{head}.{body}.{'A' * 43}"  # the same claims, not signed by this server
    try:
        await page.goto(base)
        await expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
        await check_layout(page, "sign-in")
        await page.get_by_label("API token").fill(forged)
        await page.get_by_role("button", name="Sign in").click()
        problem = page.locator("#signin-problem")
        await expect(problem).to_contain_text("The API refused this token")
        await expect(problem).to_contain_text("Signature verification failed")
        await expect(page.locator("#app")).to_be_hidden()
        await expect(page.locator("#who")).to_be_empty()
        await steps.shot("forged-token-refused")
        await page.get_by_label("API token").fill("not a token at all")
        await page.get_by_role("button", name="Sign in").click()
        await expect(problem).to_contain_text("The API refused this token")
        # The link `kminer up` prints, pasted into this same tab: no reload needed.
        await page.goto(sign_in_link(base, token))
        await expect(page.locator("#who")).to_have_text("Signed in as rita (reviewer)")
        await expect(page.locator("#app")).to_be_visible()
        assert "token=" not in page.url
        await steps.shot("signed-in-from-a-pasted-link")
        await check_layout(page, "chat")
    finally:
        await context.close()
    assert errors == [], errors


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
async def test_tags_runs_filters_back_and_keyboard(
    stack: Stack, bearer: Any, browser: Browser, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    errors = collect_errors(page, allowed=("400",))
    steps = Steps(page, ARTIFACTS / f"ui-views-{width}x{height}")
    headers = bearer("admin", "ada")
    async with recorded(steps, closing=(context,)):
        await sign_in(page, stack.api_url or "", headers["Authorization"].split()[1], "ada (admin)")
        await tags_as_the_api_checks_them(page, stack, headers, steps)
        await runs_filters(page, steps)
        await back_within_the_app(page, stack)
        await keyboard_only(page, steps)
    assert errors == [], errors


async def tags_as_the_api_checks_them(
    page: Page, stack: Stack, headers: dict[str, str], steps: Steps
) -> None:
    await unfold_tags(page)
    custom = page.get_by_label("Custom tag")
    add = page.get_by_role("button", name="Add tag")
    async with httpx.AsyncClient(base_url=stack.api_url or "", headers=headers) as http:
        for tag in REFUSED_TAGS:
            refused = await http.post("/api/runs", json={"query": "q", "domainTags": [tag]})
            assert refused.status_code == 422, (tag, refused.text)
            await custom.fill(tag)
            await expect(custom).to_have_attribute("aria-invalid", "true")
            await expect(add).to_be_disabled()
            await expect(page.locator("#custom-tag-help")).to_have_class("hint error")
    await steps.shot("tag-refused", full_page=False)
    await custom.fill("#Lithium_Watch")
    await add.click()
    chip = page.get_by_role("button", name="#lithium_watch", exact=True)
    await expect(chip).to_have_attribute("aria-pressed", "true")
    await expect(page.locator(".tag-summary")).to_contain_text("#lithium_watch")
    await steps.shot("custom-tag-added", full_page=False)
    await page.get_by_role("button", name="Remove tag #lithium_watch").click()
    await expect(chip).to_have_count(0)
    await expect(page.locator(".tag-summary")).to_contain_text("global thread")
    await expect(custom).to_be_focused()
    # The presets stay: only custom tags can be removed.
    await expect(page.get_by_role("button", name="Remove tag #supply_chain")).to_have_count(0)


async def runs_filters(page: Page, steps: Steps) -> None:
    await page.get_by_role("button", name="Runs", exact=True).click()
    message = page.locator("#runs-message")
    # The stack is shared with the other browser tests: their runs may be listed already.
    await expect(message).to_have_text(re.compile(r"No runs yet\.|\d+ run\(s\)"))
    await check_layout(page, "runs")
    await page.locator("#runs-tag").fill("nothing_here")
    await page.get_by_role("button", name="Show runs").click()
    await expect(message).to_have_text("No runs match these filters.")
    await page.locator("#runs-tag").fill("bad tag!")
    await page.get_by_role("button", name="Show runs").click()
    await expect(message).to_contain_text("Not a tag filter")
    await expect(message).to_have_class("error")
    await expect(page.locator("#runs-list li")).to_have_count(0)
    await steps.shot("runs-filter-refused", full_page=False)
    await page.locator("#runs-tag").fill("")
    await page.get_by_role("button", name="Memory", exact=True).click()
    await check_layout(page, "memory")


async def back_within_the_app(page: Page, stack: Stack) -> None:
    await page.get_by_role("button", name="Chat", exact=True).click()
    await page.get_by_role("button", name="Runs", exact=True).click()
    await expect(page.locator("#runs-view")).to_be_visible()
    await page.get_by_role("button", name="Memory", exact=True).click()
    await page.go_back()
    await expect(page.locator("#runs-view")).to_be_visible()
    await page.go_back()
    await expect(page.locator("#chat-view")).to_be_visible()
    assert page.url.startswith(stack.api_url or "-"), page.url
    await page.go_forward()
    await expect(page.locator("#runs-view")).to_be_visible()
    await page.reload()
    await expect(page.locator("#runs-view")).to_be_visible()  # the address names the view
    await expect(page.locator("#who")).to_have_text("Signed in as ada (admin)")


async def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    """Press Tab until `selector` has the focus, checking the ring on the way."""
    for _ in range(limit):
        await page.keyboard.press("Tab")
        if await page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
        if await page.evaluate("document.activeElement !== document.body"):
            ratio = await focus_ring_contrast(page)
            assert ratio >= 3, (await focused(page), ratio)
    raise AssertionError(f"Tab never reached {selector}; at {await focused(page)}")


async def keyboard_only(page: Page, steps: Steps) -> None:
    """From the top of the page to a filtered runs list and back to the chat, keys only."""
    await page.keyboard.press("Escape")
    await page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    await tab_to(page, 'nav [data-view="chat"]')
    await page.keyboard.press("Enter")
    await expect(page.locator("#chat-view")).to_be_visible()
    toggle = page.locator("#tags-toggle")
    if await toggle.is_visible() and await toggle.get_attribute("aria-expanded") == "false":
        await tab_to(page, "#tags-toggle")
        await page.keyboard.press("Enter")
    await tab_to(page, '#tag-chips [data-tag="supply_chain"]')
    await page.keyboard.press("Space")
    await expect(page.get_by_role("button", name="#supply_chain")).to_have_attribute(
        "aria-pressed", "true"
    )
    await tab_to(page, "#custom-tag")
    await page.keyboard.type("#climate")
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("button", name="#climate", exact=True)).to_be_visible()
    await tab_to(page, "#question")
    await page.keyboard.type("Who supplies cobalt?")
    await steps.shot("keyboard-composer", full_page=False)
    await page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    await tab_to(page, 'nav [data-view="runs"]')
    await page.keyboard.press("Enter")
    await tab_to(page, "#runs-phase")
    await page.keyboard.press("ArrowDown")
    await tab_to(page, "#runs-filter button")
    await page.keyboard.press("Enter")
    # The filter ran (the shared stack may hold a run in that phase, from another test).
    await expect(page.locator("#runs-message")).to_have_text(
        re.compile(r"No runs match these filters\.|\d+ run\(s\)")
    )
    await steps.shot("keyboard-runs", full_page=False)
