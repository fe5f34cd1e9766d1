"""The chat UI when the API goes away while a run waits for review and comes back
(chromium, 1280×800 and 390×844): the run says "Reconnecting…" with a Retry button at
once, not after half a minute, and review waits (its buttons disabled); the run is
decided and completes meanwhile (through Temporal, the API being down); once the server
is back, Runs → Open on it shows its completed workspace instead of a stream stuck on
its last error."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from api.auth import load_secret
from api.routes.ui import sign_in_link
from contracts.run import Decision
from kminer.config import Settings
from kminer.devserver import LOOPBACK, free_port
from kminer.stack import Stack, api_listening, embedded_stack, make_api_server
from tests.support.ui_pages import ARTIFACTS, QUESTION, RUN_MS, VIEWPORTS, Steps, recorded
from workflows.mining import MiningWorkflow


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
        async with recorded(steps, closing=(context,)):
            await page.goto(sign_in_link(base, token))
            await expect(page.locator("#who")).to_have_text("Signed in as ada (admin)")
            await page.get_by_label("Your question").fill(QUESTION)
            await page.get_by_role("button", name="Send").click()
            run = page.locator("article.run").last
            status = run.locator(".run-status")
            await expect(status).to_contain_text("Waiting for review", timeout=RUN_MS)
            run_id = await run.get_attribute("data-run-id") or ""
            approve = run.locator(".card-pending").first.get_by_role("button", name="Approve")
            await expect(approve).to_be_enabled()
            pending = await run.locator(".card-pending").evaluate_all(
                "cards => cards.map(c => c.dataset.candidateId)"
            )
            await stop()
            connection = run.locator(".connection")
            # The server closes the stream within its 3 s graceful stop; then it shows.
            await expect(connection).to_contain_text("Reconnecting", timeout=8_000)
            await expect(connection.get_by_role("button", name="Retry now")).to_be_visible()
            await expect(approve).to_be_disabled()
            await steps.shot("reconnecting", full_page=False)
            handle = stack.client.get_workflow_handle(run_id)
            decisions = [Decision(candidateId=c, action="approve", reviewer="ada") for c in pending]
            await handle.execute_update(MiningWorkflow.decide, decisions)
            await asyncio.wait_for(handle.result(), RUN_MS / 1000)
            await start()
            await page.get_by_role("button", name="Runs", exact=True).click()
            await page.get_by_role("button", name=f"Open run {run_id}").click()
            await expect(status).to_contain_text("Run completed.")
            await expect(connection).to_be_hidden()
            await expect(run.locator(".published-list .ual").first).to_be_visible()
            await expect(run.locator(".card-pending")).to_have_count(0)
            await steps.shot("completed-after-the-restart")
