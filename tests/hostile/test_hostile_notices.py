"""Every notice is inert, whatever it names: a path, a folder from the settings, an error's words (the
notice is the one way they all go, so it is made inert there: an export folder named with ESC and bidi
controls reached the terminal through 'Wrote ... to PATH')."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))

from screen_text import wait_for  # noqa: E402
from ui_factories import SIZE, make_app  # noqa: E402

from inspector.ui.options import UiOptions  # noqa: E402

ACTIVE = ("\x1b", "\x07", "\x9b", "\u202e", "\u2066", "\x00")


def notices(app) -> list[str]:
    return [f"{note.title}\n{note.message}" for note in app._notifications]


async def test_an_export_folder_named_with_escapes_is_told_inertly(tmp_path: Path) -> None:
    folder = tmp_path / "out\x1b]0;PWN\x07\x1b[2J\u202eevil\u2066[bold]x[red]"
    folder.mkdir()
    app = make_app(options=UiOptions(theme_dirs=[], export_dir=str(folder)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("x", "enter")  # the selected call as JSON
        assert await wait_for(pilot, lambda: any("Wrote" in note for note in notices(app)))
        assert list(folder.glob("inspector-call-*.json"))  # written where asked
        said = [note for note in notices(app) if "Wrote" in note]
        assert "␛]0;PWN" in said[0] and "[bold]x[red]" in said[0]  # named, as text
        assert not any(char in note for note in notices(app) for char in ACTIVE), notices(app)


async def test_any_notice_and_its_title_are_made_inert() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.notify("peer \x1b]52;c;aGk=\x07 said \x9b31m\u202eno", title="from \x1b[31mpeer\nline")
        app.screen.notify("screen \x1b[2J notice")  # a widget's notice goes through the app's
        assert await wait_for(pilot, lambda: len(notices(app)) >= 2)
        assert not any(char in note for note in notices(app) for char in ACTIVE), notices(app)
        assert any("␛]52;c;aGk=" in note for note in notices(app))


async def test_a_filter_mistake_quoting_what_was_pasted_is_shown_inertly() -> None:
    from textual.widgets import Static

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.apply_filter("state:\x1b]0;PWN\x07\u202eno")
        said = str(app.screen.query_one("#filter-error", Static).render())
        assert "unknown state" in said and "␛]0;PWN" in said
        assert not any(char in said for char in ACTIVE), said


async def test_a_filter_holding_escapes_is_shown_inertly_wherever_it_is_named() -> None:
    from inspector.ui.widgets.status_bar import StatusBar
    from inspector.ui.widgets.tool_panel import ToolFiguresPanel

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.apply_filter('"\x1b]0;PWN\x07\u202e"')  # a pasted free-text term
        await pilot.press("s")  # the per-tool figures name the filter in their title
        panel = app.screen.query_one(ToolFiguresPanel)
        assert await wait_for(pilot, lambda: "filter" in str(panel.render()))
        for said in (str(panel.render()), str(app.screen.query_one(StatusBar).render())):
            assert "␛]0;PWN" in said and not any(char in said for char in ACTIVE), said
