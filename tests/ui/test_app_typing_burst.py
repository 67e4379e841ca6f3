"""Keys typed right after ``/`` go into the filter box, however fast they come (a paste, a macro)."""

from __future__ import annotations

import shutil
import sys
import unicodedata
from pathlib import Path

import pytest
from screen_text import wait_for
from textual import events
from ui_factories import make_app

from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.status_bar import StatusBar


def status(app) -> str:
    return str(app.screen.query_one(StatusBar).render())


SPECIAL = {"⌫": ("backspace", "\x7f"), "⌃U": ("ctrl+u", "\x15"), "⏎": ("enter", "\r")}


def burst(app, text: str) -> None:
    """Every key of ``text`` queued at once, as a terminal delivers a paste: no pause between them
    (``⌫`` is backspace, ``⌃U`` ctrl+u, ``⏎`` enter)."""
    for char in text.replace("⌃U", "\x00"):
        if char in SPECIAL or char == "\x00":
            key, printable = SPECIAL["⌃U" if char == "\x00" else char]
        else:
            key = {"/": "slash", " ": "space", ":": "colon", ",": "comma", "-": "minus"}.get(char, char)
            printable = unicodedata.lookup(unicodedata.name(char))
        event = events.Key(key, printable)
        event.set_sender(app)
        app._driver.send_message(event)


async def test_a_burst_after_slash_all_lands_in_the_filter_box_and_runs_no_list_command():
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.pause()
        screen = app.screen
        theme, hidden = app.theme, screen.view.hide_messages
        item = screen.query_one(CallList).item
        burst(app, "/Read eTm")  # e jumps to a failure, T switches the theme, m hides messages
        box = screen.query_one("#filter")
        assert await wait_for(pilot, lambda: box.value == "Read eTm"), box.value
        assert app.focused is box
        assert app.theme == theme and screen.view.hide_messages == hidden
        assert screen.query_one(CallList).item is item  # the cursor did not jump

        # again once the box is open and closed: the box keeps what it had, a new burst adds to it
        await pilot.press("escape")
        burst(app, "/,x/y")  # in the box, / is a character of the filter
        assert await wait_for(pilot, lambda: box.value.endswith(",x/y")), box.value

        # the box's own keys keep their turn: backspaces, ctrl+u, then enter applies what was typed
        burst(app, "⌃Utool:get_weaht⌫⌫ther⏎")
        assert await wait_for(pilot, lambda: "filter tool:get_weather (1 row)" in status(app)), status(app)
        assert app.focused is screen.query_one(CallList)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
def test_a_burst_sent_by_tmux_in_one_send_keys_lands_in_the_filter_box(tmp_path):
    from test_tmux import DEMO, Tmux

    tmux = Tmux(tmp_path)
    tmux.socket += "-burst"
    env = {
        "INSPECTOR_CONFIG": str(tmp_path / "none.toml"),
        "INSPECTOR_CLAUDE_DIR": str(tmp_path),
        "TERM": "xterm-256color",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    try:
        tmux.start([sys.executable, "-m", "inspector", str(DEMO)], env)
        tmux.wait_for("get_weather")
        tmux.keys("-l", "/state:failed eTm")  # one write to the terminal: every key arrives at once
        screen = tmux.wait_for("state:failed eTm")  # the whole burst is in the box
        tmux.keys("C-u")
        tmux.keys("-l", "tool:get_weather")
        tmux.keys("Enter")
        screen = tmux.wait_for("filter tool:get_weather (")
        assert "book_table" not in screen  # the filter applied; no key ran a list command
    finally:
        tmux.kill()
