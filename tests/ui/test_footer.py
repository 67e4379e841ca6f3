"""The footer shows the keys of what has focus, and is rebuilt only when those keys change."""

from __future__ import annotations

from screen_text import wait_for
from ui_factories import make_app, sample_store

from inspector.ui.screens.help import HelpScreen
from inspector.ui.widgets.footer import SteadyFooter


def footer_text(app) -> str:
    footer = app.screen.query_one(SteadyFooter)
    return " ".join(str(getattr(key, "description", "")) for key in footer.children)


async def test_the_footer_follows_focus_and_survives_the_help_unchanged():
    app = make_app(sample_store())
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.pause()
        assert await wait_for(pilot, lambda: "Filter" in footer_text(app))
        assert "Zoom in" not in footer_text(app)
        await pilot.press("w")  # the timeline has focus: its keys join the footer
        assert await wait_for(pilot, lambda: "Zoom in" in footer_text(app))
        await pilot.press("w", "w")  # back to the list alone
        assert await wait_for(pilot, lambda: "Zoom in" not in footer_text(app))
        keys = list(app.screen.query_one(SteadyFooter).children)
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.pause(0.1)
        assert list(app.screen.query_one(SteadyFooter).children) == keys  # the same widgets: not rebuilt


async def test_keys_the_footer_let_go_are_freed():
    """Each change of focus rebuilds the footer's keys; the keys it let go are freed (Textual's binding of
    each key to the footer's compact kept every earlier key alive, and its cache of styles every key's
    rendered lines: 60 focus moves kept 390 keys, 12 MB)."""
    import gc
    import weakref

    from textual._styles_cache import StylesCache
    from textual.widgets._footer import FooterKey

    gc.collect()
    # what earlier tests of this worker's process left alive is none of this app's (a suite's worker
    # runs many apps): counted out, by identity while it lives
    before: weakref.WeakSet[object] = weakref.WeakSet(
        obj for obj in gc.get_objects() if isinstance(obj, (FooterKey, StylesCache))
    )

    def alive(kind: type) -> int:
        gc.collect()
        return sum(1 for obj in gc.get_objects() if isinstance(obj, kind) and obj not in before)

    def settled() -> bool:  # only the keys shown are alive (the ones let go are freed)
        return alive(FooterKey) == len(app.screen.query(FooterKey))

    app = make_app(sample_store())
    async with app.run_test(size=(120, 32)) as pilot:
        assert await wait_for(pilot, lambda: "Filter" in footer_text(app))
        assert await wait_for(pilot, settled)
        styles = alive(StylesCache)
        for _ in range(8):  # the timeline has focus, then the list again: keys rebuilt each time
            await pilot.press("w")
            assert await wait_for(pilot, lambda: "Zoom in" in footer_text(app))
            await pilot.press("w", "w")
            assert await wait_for(pilot, lambda: "Zoom in" not in footer_text(app))
        assert await wait_for(pilot, settled)
        assert alive(StylesCache) <= styles + 8
