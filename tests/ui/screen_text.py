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
