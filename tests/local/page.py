"""Drive local mode's page (SimCord's preview) with Playwright as a person would: type a slash
command in the message box, pick an autocomplete suggestion from the list, send.

Every wait is on what the page reports (``window.simcordPreview``) or shows, never a sleep.
Depends on the bot's command names only, not on its wording.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
)
"""Headless, and nothing that calls out of this machine."""

ACTION_SECONDS = 60.0
"""The longest one command may take (computer players think, boards render)."""
WAIT_SECONDS = 15.0
"""The longest the page may take to show something (a list, another tab's move)."""

PREVIEW = "window.simcordPreview"
IDLE = f"!{PREVIEW}.pendingAction && !{PREVIEW}.pendingQuery"
MESSAGES = "#channel-message-list article.channel-message"


def chromium_path() -> str | None:
    """Debian's Chromium, if it is installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass(frozen=True)
class Message:
    """A message as the page shows it."""

    id: str
    author: str
    text: str
    images: int


class TablePage:
    """One browser tab on the local table."""

    def __init__(self, page: Any) -> None:
        self.page = page

    @property
    def composer(self) -> Any:
        """The message box."""
        return self.page.locator("#channel-composer-input")

    async def open(self, url: str) -> None:
        """Load the page and wait until its commands are ready."""
        await self.page.goto(url)
        await self.composer.wait_for(state="visible")
        await self._wait(f"() => {PREVIEW}?.commandPicker?.catalog?.state === 'ready' && {IDLE}")

    async def state(self) -> dict[str, Any]:
        """The page's own report of what it shows."""
        return dict(await self.page.evaluate(PREVIEW))

    async def view_as(self, name: str) -> None:
        """Pick the player this tab plays as ("Viewing as")."""
        before = (await self.state())["contextGeneration"]
        await self.page.locator("#viewer-picker").select_option(label=name)
        await self._wait(f"() => {PREVIEW}.contextGeneration > {before} && {IDLE}")

    async def messages(self) -> list[Message]:
        """The messages the tab shows, oldest first."""
        rows = await self.page.evaluate(
            f"""() => [...document.querySelectorAll('{MESSAGES}')].map((a) => ({{
                id: a.dataset.messageId,
                author: a.querySelector('.message-author')?.textContent || '',
                text: a.querySelector('.message-content')?.innerText || '',
                images: a.querySelectorAll('img').length,
            }}))"""
        )
        return [Message(row["id"], row["author"], row["text"], row["images"]) for row in rows]

    async def wait_for_message(self, seen: list[str], *, images: bool = False) -> Message:
        """The newest message whose id is not in ``seen``, once it shows (with an image loaded,
        if ``images``)."""
        loaded = "img && img.complete && img.naturalWidth > 0" if images else "true"
        # a board follows a move as a command's answer does (drawn in a worker, perhaps after a
        # computer's move): it gets a command's allowance, not a list's
        await self._wait(
            f"""() => {{
                const seen = new Set({json.dumps(seen)});
                const fresh = [...document.querySelectorAll('{MESSAGES}')]
                    .filter((a) => !seen.has(a.dataset.messageId));
                const img = fresh.length ? fresh[fresh.length - 1].querySelector('img') : null;
                return fresh.length > 0 && {loaded};
            }}""",
            seconds=ACTION_SECONDS,
        )
        return [message for message in await self.messages() if message.id not in seen][-1]

    async def command(self, path: str, **options: str) -> None:
        """Type ``/path`` with ``options`` (as typed, e.g. ``game="triominos"``) and send it."""
        await self._start_command(path)
        for name, value in options.items():
            await self._show_option(name)
            await self._option(name).fill(value)
            await self._close_popup()
        await self._send()

    async def play_suggestion(self, path: str, option: str = "move", *, shot: Path | None = None) -> str:
        """Type ``/path``, open the suggestions for ``option``, pick the first and send it; the
        notation picked. ``shot``: where to save a screenshot of the open suggestions."""
        await self._start_command(path)
        field = self._option(option)
        await field.focus()
        await self.page.keyboard.type(" ")  # typing and erasing asks for every suggestion
        await self.page.keyboard.press("Backspace")
        await self._wait(
            f"() => {{ const a = {PREVIEW}.commandPicker.autocomplete;"
            " return a.state === 'answered' && a.choiceCount > 0; }"
        )
        await self.page.locator(".command-popup [role=option]").first.wait_for(state="visible")
        if shot is not None:
            await self.screenshot(shot)
        await self.page.keyboard.press("Enter")
        await self._wait(f"() => document.querySelector('{self._option_selector(option)}')?.value !== ''")
        chosen = str(await field.input_value())
        await self._send()
        return chosen

    async def status(self) -> str:
        """What the page's status line says about the last action."""
        return str(await self.page.evaluate("() => document.body.innerText"))

    async def screenshot(self, path: Path) -> None:
        """Save what the tab shows."""
        path.parent.mkdir(parents=True, exist_ok=True)
        await self.page.screenshot(path=str(path))

    # -- the message box -------------------------------------------------------------------

    async def _start_command(self, path: str) -> None:
        await self._wait(f"() => {IDLE}")
        await self.composer.click()
        await self.composer.fill("")
        await self.page.keyboard.type(f"/{path}")
        key = path.replace(" ", ".")
        await self._wait(
            f"() => {{ const p = {PREVIEW}.commandPicker;"
            f" return p.state === 'browsing' && (p.activeEntryKey || '').endsWith(':{key}'); }}"
        )
        await self.page.keyboard.press("Enter")
        await self._wait(f"() => {PREVIEW}.commandPicker.draft !== null")
        await self._close_popup()

    @staticmethod
    def _option_selector(name: str) -> str:
        return f'.command-option-input[data-option="{name}"]'

    def _option(self, name: str) -> Any:
        return self.page.locator(self._option_selector(name))

    async def _show_option(self, name: str) -> None:
        if await self._option(name).count():
            return  # a required option is always shown
        await self.page.locator(".command-ghost").first.click()
        await self.page.locator(".command-popup [role=option]", has_text=name).first.click()
        await self._option(name).wait_for(state="visible")

    async def _close_popup(self) -> None:
        if await self.page.locator(".command-popup:not([hidden])").count():
            await self.page.keyboard.press("Escape")

    async def _send(self) -> None:
        before = ((await self.state()).get("lastAction") or {}).get("requestId")
        await self.page.locator("#send-message").click()
        await self._wait(
            f"() => {{ const a = {PREVIEW}.lastAction;"
            f" return a && a.requestId !== {json.dumps(before)} && a.settlement !== 'pending' && {IDLE}; }}",
            seconds=ACTION_SECONDS,
        )
        last = (await self.state())["lastAction"]
        assert last["settlement"] == "settled" and not last["rejected"], last
        await self._wait(f"() => {PREVIEW}.ready")  # its images and fonts have loaded

    async def _wait(self, script: str, seconds: float = WAIT_SECONDS) -> None:
        await self.page.wait_for_function(script, timeout=seconds * 1000)
