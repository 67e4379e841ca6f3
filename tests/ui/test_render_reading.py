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


def test_markdown_export_shows_results_as_text_and_times_in_iso_8601():
    from inspector.ui.export import export_items

    read = make_call(
        make_request("toolu_r", "Read", params={"file_path": "/w/a.py"}, ts=1_748_772_001.5),
        make_result(call_id="toolu_r", data="1\tdef main():\n2\t    return 0", ts=1_748_772_002.25),
    )
    blocks = make_call(
        make_request("toolu_t", "Task", params={"prompt": "survey"}),
        make_result(call_id="toolu_t", data=[{"type": "text", "text": "Found 3 files.\nDone."}]),
    )
    mapped = make_call(make_request("toolu_m", "calc"), make_result(call_id="toolu_m", data={"answer": 2}))
    text = export_items([read, blocks, mapped], "md", 1_748_772_010.0, "view")
    assert "- requested: 2025-06-01T10:00:01.500Z" in text
    assert "Result (success, 2025-06-01T10:00:02.250Z):" in text
    assert "```text\n1    def main():\n2        return 0\n```" in text  # tabs shown as spaces
    assert "\\n" not in text.split("Parameters:")[1].split("Result")[1]  # real newlines, not JSON escapes
    assert "```text\nFound 3 files.\nDone.\n```" in text
    assert '"answer": 2' in text  # a map stays JSON
