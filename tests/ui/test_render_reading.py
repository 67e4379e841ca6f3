"""Reading comfort in the detail: a Write's diff before its folded content."""

from __future__ import annotations

from render_factories import make_call, make_request, make_result, render

from inspector.model.details import PatchDetail
from inspector.model.diff import hunks_from_structured_patch
from inspector.ui.render import RenderTheme, render_call

THEME = RenderTheme()


def write_call():
    content = "\n".join(f"line {n}" for n in range(600))
    patch = [{"oldStart": 3, "oldLines": 1, "newStart": 3, "newLines": 1, "lines": ["-line two", "+line 2"]}]
    detail = PatchDetail(path="/w/big.txt", hunks=hunks_from_structured_patch(patch), kind="update")
    request = make_request(tool="Write", params={"file_path": "/w/big.txt", "content": content})
    return make_call(request, make_result(details=detail))


def test_a_write_shows_its_diff_first_and_folds_the_whole_content_below():
    text = render(render_call(write_call(), width=100, theme=THEME, now=None)).text
    assert text.index("change") < text.index("parameters")
    assert "line 599" not in text and "▸ content  600 lines" in text
    assert "/w/big.txt" in text.split("parameters", 1)[1]  # the short parameters stay
    assert len(text.splitlines()) < 40


def test_full_text_unfolds_the_content():
    text = render(render_call(write_call(), width=100, theme=THEME, now=None, full_text=True)).text
    assert "line 599" in text and "▸ content" not in text


def test_a_call_without_a_diff_keeps_its_parameters_first():
    call = make_call(make_request(params={"command": "ls"}), make_result(data="a\nb"))
    text = render(render_call(call, width=100, theme=THEME, now=None)).text
    assert text.index("parameters") < text.index("result")


def test_wrapped_side_by_side_lines_keep_the_separator():
    from inspector.model.diff import FileDiff
    from inspector.ui.render.diff_view import render_diff

    long_line = "x = '" + "word " * 60 + "'"
    patch = [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-" + long_line, "+y"]}]
    diff = FileDiff("a.py", hunks_from_structured_patch(patch))
    lines = render(render_diff(diff, width=120, theme=THEME, side_by_side=True), width=120).text.splitlines()
    rows = [line for line in lines if "word" in line]
    assert len(rows) > 2  # the long line wraps
    assert all("│" in line for line in rows)
