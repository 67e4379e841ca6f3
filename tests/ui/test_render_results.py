"""Each kind of result details renders in its own view with the content a person needs."""

from __future__ import annotations

import re

from render_factories import make_result, render

from inspector.model import Outcome
from inspector.model.details import (
    BashDetail,
    DisplayDetail,
    FetchDetail,
    FileDetail,
    FileListDetail,
    PatchDetail,
    SearchDetail,
    Segment,
    TaskDetail,
    TextDetail,
    TodoDetail,
    TodoItem,
)
from inspector.model.diff import hunks_from_structured_patch, parse_unified_diff
from inspector.ui.render import RenderTheme, render_result_body

THEME = RenderTheme.dark()


def show(details=None, data=None, width: int = 100, **kwargs) -> str:
    result = make_result(details=details, data=data)
    return render(render_result_body(result, width=width, theme=THEME, **kwargs), width=width).text


def rows(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_bash_separates_stdout_and_stderr_and_shows_interruption():
    text = show(
        BashDetail(
            stdout="file1\nfile2\n",
            stderr="warning: x",
            interrupted=True,
            exit_code=130,
            background_id="bg7",
            note="Interrupted by user",
        )
    )
    lines = rows(text)
    assert lines[0] == "interrupted  ·  exit code 130  ·  background task bg7  ·  Interrupted by user"
    assert lines[1:] == ["stdout  2 lines", "file1", "file2", "stderr  1 line", "warning: x"]
    assert "(no output)" in show(BashDetail())


def test_read_file_has_line_numbers_from_its_start_line_and_highlighting():
    detail = FileDetail("src/app.py", "def f():\n    return 1\n", start_line=41, num_lines=2, total_lines=90)
    out = render(render_result_body(make_result(details=detail), width=80, theme=THEME), width=80)
    assert rows(out.text) == ["file  src/app.py  (lines 41–42 of 90)", "  41 def f():", "  42     return 1"]
    plain = render(
        render_result_body(make_result(details=FileDetail("notes.txt", "def f():")), width=80, theme=THEME),
        width=80,
    )
    assert out.ansi.count("\x1b[") > plain.ansi.count("\x1b[") + 3  # tokens coloured for .py only


def test_image_read_is_a_placeholder():
    text = show(FileDetail("shot.png", is_image=True, mime="image/png"))
    assert "shot.png" in text and "[image image/png — not shown in the terminal]" in text


def test_patch_shows_the_diff_and_a_created_file_as_all_added():
    hunks = hunks_from_structured_patch(
        [{"oldStart": 3, "oldLines": 1, "newStart": 3, "newLines": 1, "lines": ["-a = 1", "+a = 2"]}]
    )
    text = show(PatchDetail("m.py", hunks, user_modified=True))
    assert "change  update · modified by the user before it was applied" in text
    assert "  3     - a = 1" in text and "      3 + a = 2" in text
    created = rows(show(PatchDetail("new.py", [], "create", "x = 1\ny = 2\n")))
    assert created[1:] == ["new.py  +2 −0", "@@ -0,0 +1,2 @@", "      1 + x = 1", "      2 + y = 2"]


def test_todos_mark_status_changes_new_and_removed_items():
    detail = TodoDetail(
        old=[TodoItem("write code", "in_progress"), TodoItem("test"), TodoItem("dropped")],
        new=[TodoItem("write code", "completed"), TodoItem("test"), TodoItem("ship")],
    )
    assert rows(show(detail)) == [
        "todos  3 → 3 items",
        "☑ write code   ← was in progress",
        "☐ test",
        "☐ ship   ← new",
        "removed  1 item",
        "☐ dropped",
    ]
    out = render(render_result_body(make_result(details=detail), width=80, theme=THEME))
    assert re.search(r"\x1b\[(?:[0-9]+;)*9(?:;[0-9]+)*mdropped", out.ansi)  # struck through


def test_file_lists_for_glob_and_grep():
    assert rows(show(FileListDetail(["a.py", "b/c.py"], num_files=2, truncated=True))) == [
        "2 files  ·  truncated",
        "a.py",
        "b/c.py",
    ]
    grep = rows(show(FileListDetail([], 1, content="a.py:3:def x", mode="content", num_lines=1)))
    assert grep == ["1 file  ·  mode content  ·  lines 1", "a.py:3:def x"]
    assert "(no matches)" in show(FileListDetail([], 0))


def test_fetch_and_search_summaries():
    fetch = rows(show(FetchDetail("https://example.org", 200, "OK", 4096, 350.0, "# Example\ntext")))
    assert fetch == ["https://example.org  ·  HTTP 200 OK  ·  4.0 KB  ·  350ms", "# Example", "text"]
    search = rows(
        show(
            SearchDetail(
                "textual tui",
                [
                    {
                        "tool_use_id": "srv",
                        "content": [{"title": "Textual", "url": "https://textual.textualize.io"}],
                    },
                    "Textual is a TUI framework.",
                ],
                1.5,
            )
        )
    )
    assert search == [
        "query textual tui  ·  1.5s",
        "• Textual",
        "  https://textual.textualize.io",
        "Textual is a TUI framework.",
    ]


def test_task_shows_status_counts_prompt_and_answer():
    text = rows(
        show(TaskDetail("a1", "completed", "look around", "Find the bug", "It is in x.py", 7, 83000, 1500))
    )
    assert text == [
        "status completed  ·  agent a1  ·  tool uses 7  ·  took 1m23s  ·  tokens 1,500",
        "description look around",
        "prompt",
        "Find the bug",
        "answer",
        "It is in x.py",
    ]


def test_display_renders_the_first_supported_segment_or_the_full_text():
    diff = parse_unified_diff("@@ -1 +1 @@\n-old\n+new\n", "f.txt")
    detail = DisplayDetail(
        [Segment("image", {"x": 1}), Segment("diff", {}, diff), Segment("text", "short")], "the full text"
    )
    text = show(detail)
    assert "display: diff  segment 2 of 3; the model received 13 chars" in text
    assert "  1     - old" in text and "short" not in text
    full = show(detail, full_text=True)
    assert "full text the model received" in full and "the full text" in full and "- old" not in full
    only_text = show(DisplayDetail([Segment("text", "Deployed i-0abc")], "Deployment completed"))
    assert "Deployed i-0abc" in only_text and "Deployment completed" not in only_text
    fallback = show(DisplayDetail([Segment("image", "…")], "plain fallback"))
    assert (
        "no display segment the inspector can show (types: image)" in fallback
        and "plain fallback" in fallback
    )


def test_text_and_generic_json():
    assert show(TextDetail("hello\nworld")).splitlines() == ["hello", "world"]
    assert rows(show(data={"instances": [{"id": "i-1"}], "count": 1})) == [
        "{",
        '  "instances": [',
        "    {",
        '      "id": "i-1"',
        "    }",
        "  ],",
        '  "count": 1',
        "}",
    ]
    assert rows(show(data='{"a": true}')) == ["{", '  "a": true', "}"]  # JSON text is pretty-printed
    assert show(data=None).strip() == "(no data)"
    assert "<3 bytes: 01 02 03>" in show(data={"b": b"\x01\x02\x03"})


def test_a_view_given_broken_details_falls_back_to_the_data():
    text = show(BashDetail(stdout=None, stderr=12), data={"kept": 1})  # type: ignore[arg-type]
    assert '"kept": 1' in text


def test_an_error_result_still_shows_its_details():
    result = make_result(Outcome.ERROR, details=BashDetail(stderr="boom"), error_message="exit 1")
    assert "boom" in render(render_result_body(result, width=80, theme=THEME)).text
