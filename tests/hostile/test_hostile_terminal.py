"""Nothing reaches the terminal that should not, and text compares as typed (issue 25 §5): a key binding
holding ESC, a copied id holding ESC, ``id:İ`` and other case-folded compares, and the answer screen's
countdown once the peer has answered."""

from __future__ import annotations

from factories import make_request, make_result

from inspector.answer import compose
from inspector.config import Config, apply_settings
from inspector.model import Call
from inspector.model.filter import parse_filter
from inspector.ui.export import clipboard_text, copy_text
from inspector.ui.screens.help import key_label

ESC_TITLE = "\x1b]0;pwned\x07"


def test_a_key_binding_holding_esc_is_refused_and_never_shown_raw():
    config = Config()
    warnings = apply_settings(config, {"keys": {"filter": f"ctrl+f,{ESC_TITLE}"}}, "config")
    assert "filter" not in config.keys and len(warnings) == 1
    assert "\x1b" not in warnings[0] and "\x07" not in warnings[0]  # the warning shows it escaped
    assert "\x1b" not in key_label(f"j,{ESC_TITLE}") and "\x07" not in key_label(f"j,{ESC_TITLE}")


def test_a_copied_id_holding_esc_is_cleaned_as_it_is_shown():
    call = Call(make_request(f"id{ESC_TITLE}"))
    text, cut = clipboard_text(copy_text(call, "id", None) or "")
    assert not cut and "\x1b" not in text and "\x07" not in text and text.startswith("id")


def test_an_id_prefix_and_free_text_compare_case_folded():
    calls = [Call(make_request("İstanbul-1")), Call(make_request("Straße-2")), Call(make_request("plain"))]
    calls[1].request.summary = "STRASSE"

    def matching(text: str) -> list[str]:
        flt = parse_filter(text)
        return [c.call_id for c in calls if flt.matches(c, None)]

    assert matching("id:İ") == ["İstanbul-1"]  # a prefix whose lower() is longer than itself
    assert matching("id:İstanbul") == ["İstanbul-1"]
    assert matching("id:straße") == ["Straße-2"]
    assert matching("id:STRASSE") == ["Straße-2"]  # ß folds to ss, as it does in free text
    assert matching("straße") == ["Straße-2"]


def test_the_answer_screens_countdown_stops_once_the_peer_answered():
    call = Call(make_request("c1", timeout_ms=5000))
    assert compose.time_left_text(call, 1001.0) == "4.0 s left"
    answer = make_result("c1")
    answer.sender = f"agent{ESC_TITLE}"
    call.results.append(answer)
    said = compose.time_left_text(call, 1100.0)
    assert said.startswith("answered by agent") and "\x1b" not in said and "overdue" not in said


async def test_a_terminal_of_one_cell_or_10000_columns_keeps_the_keys(tmp_path):
    """The terminal resized to 1x1, 10000 wide, one row, one column, with a session of every format open:
    every key still does its work (the list moves, the detail, timeline and help open and close), and q
    quits."""
    import sys
    from pathlib import Path

    import hostile_gen as gen

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
    from ui_factories import file_app

    from inspector.ui.widgets.call_list import CallList

    paths = [str(gen.good_file(tmp_path, kind)[0]) for kind in gen.BASES if kind not in gen.FORCED]
    app = file_app(paths)
    async with app.run_test(size=(120, 30)) as pilot:
        for _ in range(200):
            if not app.screen.has_class("-loading"):
                break
            await pilot.pause(0.05)
        for size in [(1, 1), (10000, 50), (2, 2), (1, 200), (400, 1), (10000, 1), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.press("g")
            before = app.screen.query_one(CallList).cursor
            await pilot.press("j")
            await pilot.pause()
            assert app.screen.query_one(CallList).cursor == before + 1, size
            for keys in (["enter"], ["w"], ["w"], ["question_mark"], ["escape"], ["slash", "x", "escape"]):
                await pilot.press(*keys)
                await pilot.pause()
            assert type(app.screen).__name__ == "MainScreen", size
        await pilot.press("q")
    assert app.return_code == 0
