"""The chat UI when the API goes away mid-run and comes back (chromium, 1280×800 and
390×844): the run says "Reconnecting…" with a Retry button at once, not after half a
minute; once the server is back, Runs → Open on the run, which completed meanwhile,
shows its completed workspace instead of a stream stuck on its last error."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from api.auth import load_secret
from api.routes.ui import sign_in_link
from kminer.config import Settings
from kminer.devserver import LOOPBACK, free_port
from kminer.stack import Stack, api_listening, embedded_stack, make_api_server
from tests.support.ui_pages import ARTIFACTS, QUESTION, RUN_MS, VIEWPORTS, Steps


@asynccontextmanager
async def api_that_restarts(
    stack: Stack, settings: Settings, port: int
) -> AsyncIterator[tuple[Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]]:
    """The API on a fixed port, with (stop, start) to take it down and up again."""
    secret = load_secret(settings.data_dir)
    running: list[tuple[Any, asyncio.Task[None]]] = []

    async def start() -> None:
        server = make_api_server(stack.client, settings, stack.services, secret, LOOPBACK, port)
        task = asyncio.create_task(server.serve())
        await api_listening(task, port)
        running.append((server, task))

    async def stop() -> None:
        server, task = running.pop()
        server.should_exit = True
        await task

    await start()
    try:
        yield stop, start
    finally:
        if running:
            await stop()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
async def test_after_a_server_restart_the_completed_run_opens_completed(
    settings: Settings, bearer: Any, browser: Browser, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    token = bearer("admin", "ada")["Authorization"].split()[1]
    port = free_port()
    base = f"http://{LOOPBACK}:{port}"
    async with (
        embedded_stack(settings, with_api=False) as stack,
        api_that_restarts(stack, settings, port) as (stop, start),
    ):
        context = await browser.new_context(viewport={"width": width, "height": height})
        page = await context.new_page()
        steps = Steps(page, ARTIFACTS / f"ui-restart-{width}x{height}")
        try:
            await page.goto(sign_in_link(base, token))
            await expect(page.locator("#who")).to_have_text("Signed in as ada (admin)")
            await page.get_by_label("A reviewer decides before anything is published").uncheck()
            await page.get_by_label("Your question").fill(QUESTION)
            await page.get_by_role("button", name="Send").click()
            run = page.locator("article.run").last
            await expect(run.locator(".run-status")).to_contain_text("Mining", timeout=30_000)
            run_id = await run.get_attribute("data-run-id") or ""
            await stop()
            connection = run.locator(".connection")
            await expect(connection).to_contain_text("Reconnecting", timeout=5_000)
            await expect(connection.get_by_role("button", name="Retry now")).to_be_visible()
            await steps.shot("reconnecting", full_page=False)
            await asyncio.wait_for(stack.client.get_workflow_handle(run_id).result(), RUN_MS / 1000)
            await start()
            await page.get_by_role("button", name="Runs", exact=True).click()
            await page.get_by_role("button", name=f"Open run {run_id}").click()
            await expect(run.locator(".run-status")).to_contain_text("Run completed.")
            await expect(connection).to_be_hidden(timeout=20_000)
            await expect(run.locator(".answer h3")).to_have_text("Answer")
            await steps.shot("completed-after-the-restart")
        except Exception:
            await page.screenshot(path=steps.folder / "failure.png", full_page=True)
            raise
        finally:
            await context.close()
