"""Pilot tests of the main screen's actions: filter, detail, raw, copy, export, pager, help, palette, themes, keys."""

from __future__ import annotations

import json

from screen_text import screen_text, wait_for
from ui_factories import SIZE, make_app

from inspector.config import Config
from inspector.model import Call
from inspector.ui.options import UiOptions
from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.menus import ChoiceMenu
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.detail import DetailPane


def call_list(app) -> CallList:
    return app.screen.query_one(CallList)


def notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def select(pilot, app, call_id: str) -> None:
    view = call_list(app).view
    index = next(i for i, item in enumerate(view.items) if isinstance(item, Call) and item.call_id == call_id)
    call_list(app).move_to(index)
    await pilot.pause()


async def test_filter_input_applies_the_grammar_and_n_moves_between_matches():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash")
        await pilot.press(*"tool:Read,Edit")
        await pilot.press("enter")
        await pilot.pause()
        items = call_list(app).view.items
        assert [item.tool for item in items] == ["Task", "Read", "Edit"]  # the parent stays as context
        assert call_list(app).has_focus
        assert "filter tool:Read,Edit (3 rows)" in screen_text(app)
        await pilot.press("g", "n")
        assert call_list(app).item.tool == "Read"
        await pilot.press("n")
        assert call_list(app).item.tool == "Edit"
        await pilot.press("N")
        assert call_list(app).item.tool == "Read"


async def test_a_filter_mistake_shows_where_and_keeps_the_old_filter():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = len(call_list(app).view)
        await pilot.press("slash", *"state:bogus", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "^ column 7: unknown state 'bogus'" in text
        assert len(call_list(app).view) == before
        await pilot.press("escape")
        await pilot.pause()
        assert call_list(app).has_focus


async def test_enter_opens_the_detail_escape_comes_back_and_r_shows_raw():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await select(pilot, app, "fail1")
        detail = app.screen.query_one(DetailPane)
        assert detail.item.call_id == "fail1"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.has_class("-detail-open") and detail.has_focus
        assert not call_list(app).display or not call_list(app).region.height
        await pilot.press("escape")
        await pilot.pause()
        assert not app.screen.has_class("-detail-open") and call_list(app).has_focus
        await pilot.press("r")
        assert detail.raw
        await pilot.press("f")
        assert detail.full_text


async def test_copy_menu_copies_id_parameters_or_result():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await select(pilot, app, "ok1")
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceMenu)
        await pilot.press("enter")  # the first choice: the call id
        await pilot.pause()
        assert app.clipboard == "ok1"
        await pilot.press("y", "down", "enter")
        await pilot.pause()
        assert json.loads(app.clipboard) == {"city": "Rome"}
        await pilot.press("y", "down", "down", "enter")
        await pilot.pause()
        assert json.loads(app.clipboard) == {"temp": 21}
        assert any("Copied" in note for note in notes(app))
        await pilot.press("y", "down", "down", "down", "enter")
        await pilot.pause()
        assert json.loads(app.clipboard)["id"] == "ok1"
        said = [note for note in notes(app) if "whole call" in note]
        assert said and said[-1].startswith("Copied the whole call (json)"), said


async def test_export_writes_the_call_or_the_filtered_view(tmp_path):
    app = make_app(options=UiOptions(theme_dirs=[], export_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await select(pilot, app, "task1")
        await pilot.press("x", "enter")  # selected call as JSON
        await pilot.pause()
        [written] = list(tmp_path.glob("inspector-call-*.json"))
        data = json.loads(written.read_text())
        assert data[0]["id"] == "task1" and [c["id"] for c in data[0]["nested"]] == ["sub1", "sub2"]
        assert any(str(written) in note for note in notes(app))
        await pilot.press("slash", *"state:failed", "enter")
        await pilot.pause()
        await pilot.press("x", "down", "down", "down", "enter")  # filtered view as Markdown
        await pilot.pause()
        [markdown] = list(tmp_path.glob("inspector-view-*.md"))
        text = markdown.read_text()
        assert "## web_search `fail1`" in text and "get_weather" not in text
        await pilot.press("slash", "ctrl+u", "enter")  # clear the filter: the whole view
        await pilot.pause()
        await pilot.press("x", "down", "down", "enter")  # filtered (here: whole) view as JSON
        await pilot.pause()
        [view] = list(tmp_path.glob("inspector-view-*.json"))
        ids = [entry.get("id") for entry in json.loads(view.read_text())]
        assert "task1" in ids and "sub1" not in ids  # nested calls only inside their Task


async def test_pager_says_so_when_the_terminal_cannot_be_handed_over(tmp_path, monkeypatch):
    # a headless test app cannot suspend; tests/ui/test_tmux.py covers the real hand-over to $PAGER
    app = make_app()
    monkeypatch.setenv("PAGER", f"cp --no-clobber -t {tmp_path}")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await select(pilot, app, "ok1")
        await pilot.press("P")
        await pilot.pause()
        assert any("cannot hand over to a pager" in note for note in notes(app))
        assert not list(tmp_path.iterdir())


async def test_help_screen_lists_bindings_with_remapped_keys():
    app = make_app(config=Config(keys={"next-pending": "z", "bogus-id": "k"}))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("bogus-id" in note for note in notes(app))  # a bad [keys] entry is reported, not fatal
        await pilot.press("z")
        assert call_list(app).item.call_id == "wait1"  # the remapped key works
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "next-pending" in text and "Next pending" in text and "Filter" in text
        pending_line = next(line for line in text.splitlines() if "next-pending" in line)
        assert " z " in pending_line
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_palette_lists_every_action_and_runs_it():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"next orphan")
        await pilot.pause(0.3)
        assert "Next orphan" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause(0.2)
        from inspector.model import OrphanResult

        assert isinstance(call_list(app).item, OrphanResult)


async def test_t_cycles_themes_and_a_bad_theme_falls_back_with_a_notice(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text('name = "broken"\n[colors]\nprimary = "not a colour"\n')
    app = make_app(options=UiOptions(theme_dirs=[], theme=str(bad)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "inspector-dark"
        assert any("broken.toml" in note for note in notes(app))
        await pilot.press("t")
        await pilot.pause()
        assert app.theme == "inspector-light"
        assert app.get_css_variables()["call-pending"] == app.current_theme.variables["call-pending"]


async def test_keys_of_other_modes_stay_out_of_the_footer():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: "Filter" in screen_text(app).splitlines()[-1])  # painted
        footer = screen_text(app).splitlines()[-1]
        assert "Filter" in footer and "Play/pause" not in footer and "Answer" not in footer
        assert "Follow" not in footer  # a store handed over in memory cannot be followed
        await pilot.press("space", "left_square_bracket", "plus")  # nothing to play: nothing happens
        await pilot.pause()
        assert app.screen.replay is None


async def test_the_palette_offers_every_key_action_of_the_main_screen():
    from inspector.ui import keys
    from inspector.ui.commands import InspectorCommands

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        names = {name for name, _, _ in InspectorCommands(app.screen)._commands()}
        wanted = {
            key.description
            for key in keys.KEYS
            if key.scope in ("main", "list", "timeline", "app")
            and keys.action_name(key.action) not in keys.MODE_ACTIONS
        }
        assert wanted <= names
        assert "Play/pause" not in names  # not a replay
        assert "Theme: inspector-light" in names


async def test_state_colours_come_from_the_theme():
    from rich.color import Color

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dark = call_list(app).row_styles["pending"].color
        assert dark == Color.parse(app.current_theme.variables["call-pending"])
        app.theme = "inspector-light"
        await pilot.pause()
        light = call_list(app).row_styles["pending"].color
        assert light == Color.parse(app.current_theme.variables["call-pending"]) and light != dark


async def test_a_click_selects_the_row_and_a_double_click_opens_it():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click(CallList, offset=(30, 2))
        assert call_list(app).cursor == 2
        await pilot.click(CallList, offset=(30, 1), times=2)
        await pilot.pause()
        assert app.screen.has_class("-detail-open")


async def test_notifications_show_session_text_as_typed():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.notify("[colors] has [bold]no[/bold] markup here")
        await pilot.pause()
        [note] = [n for n in app._notifications if "[colors]" in n.message]
        assert note.markup is False  # shown as typed, whatever a path or an error message contains
