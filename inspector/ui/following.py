"""Following session files from a screen: a worker follows each file (and one the folders opened, for
session files started since), and what they meet is said in a notice.

The files' capability (sources/feeds.py ``FileSource``) does the reading; this runs it on the screen's
workers (group ``follow``) and tells the screen when the store was replaced (a file truncated or
rewritten, read again from its top) and when the status line has news.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from inspector.sources.feeds import FileSource
from inspector.sources.files import Opened
from inspector.textsafe import one_line


def toggle(
    screen: Screen[Any], files: FileSource, on_store: Callable[[], None], changed: Callable[[], None]
) -> None:
    """Stop following ``files``, or start (formats that cannot be followed are said): ``on_store`` is
    called when a fresh store replaced the one shown, ``changed`` when the status may read otherwise."""
    if files.following:
        files.following = False
        screen.workers.cancel_group(screen, "follow")
        return
    followable, unable = files.followable()
    if unable:
        names = ", ".join(unable)
        screen.notify(f"The {names} format cannot be followed.", severity="warning", timeout=4)
    files.following = True

    def restarted(path: str) -> None:
        on_store()  # a fresh store: the cursor and the filter stay
        screen.notify(
            f"{one_line(path, 200)} was truncated or replaced; reading it again from the top.",
            severity="warning",
            timeout=5,
        )
        changed()

    def problem(path: str, why: str) -> None:
        if why:
            text = f"Following {one_line(path, 200)}: {one_line(why, 200)}; trying again every second."
            screen.notify(text, severity="warning", timeout=6)
        else:
            screen.notify(f"Following {one_line(path, 200)} again.", timeout=3)
        changed()

    def found(opened: Opened) -> None:
        """A session file created in a folder opened, now followed."""
        screen.notify(f"New session file {one_line(opened.path, 200)}: following it.", timeout=4)

    for opened in followable:
        screen.run_worker(
            files.follow(opened, restarted, problem),
            group="follow",
            exit_on_error=False,
            description=f"following {opened.path}",
        )
    if files.folders:
        screen.run_worker(
            files.follow_folders(restarted, problem, found),
            group="follow",
            exit_on_error=False,
            description="following the folders opened",
        )
