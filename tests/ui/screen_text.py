"""The text on an app's screen (what a person would read), for pilot tests and debugging."""

from __future__ import annotations

import io

from rich.console import Console


def screen_text(app) -> str:
    """Every line of the current screen as plain text (styles dropped)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)


async def wait_for(pilot, condition, seconds: float = 8.0) -> bool:
    """Pause the app until ``condition()`` holds (True) or ``seconds`` pass (then its last answer).

    Repaints are throttled by timers (a live list at most 10 a second), which ``pilot.pause()`` alone
    does not wait for: a test waits on what it checks, never on a fixed delay.
    """
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await pilot.pause(0.05)
    return condition()


async def wait_long(pilot, condition) -> bool:
    """:func:`wait_for` up to 30 s, then one more pause so the layout catches up before the screen is read
    (a folder is read in a worker: on a busy machine, with the suite's other workers beside it, 5 s was not
    always enough)."""
    if await wait_for(pilot, condition, 30.0):
        await pilot.pause()
        return True
    return False


def settled(app) -> bool:
    """Whether the main screen has taken in every change of its store (no repaint waiting on its timer)."""
    from inspector.ui.screens.main import MainScreen

    for screen in app.screen_stack:
        if isinstance(screen, MainScreen):
            feed = screen.presenter.feed
            return screen._flush_timer is None and (feed is None or not feed._pending)
    return True


async def settle(pilot) -> None:
    """Pause until the main screen has shown every change made so far (see :func:`wait_for`)."""
    assert await wait_for(pilot, lambda: settled(pilot.app))
    await pilot.pause()
