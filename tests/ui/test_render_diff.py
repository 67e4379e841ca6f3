"""Diff rendering: line numbers for both hunk sources, side by side from a width, highlighting by language."""

from __future__ import annotations

from pygments.token import Keyword
from render_factories import render
from rich.console import Console
from rich.text import Text

from inspector.model.diff import FileDiff, hunks_from_structured_patch, parse_unified_diff
from inspector.ui.render import SIDE_BY_SIDE_MIN_WIDTH, Limits, RenderTheme, lexer_for_path, render_diff
from inspector.ui.render.highlight import highlight_code, token_style
from inspector.ui.render.words import changed_ranges

THEME = RenderTheme.dark()
CONSOLE = Console()

STRUCTURED = [
    {
        "oldStart": 10,
        "oldLines": 4,
        "newStart": 10,
        "newLines": 5,
        "lines": [
            " def total(items):",
            "-    return sum(items)",
            "+    # ignore None",
            "+    return sum(i for i in items if i)",
            "     # end",
        ],
    }
]

UNIFIED = """\
--- a/old_name.py
+++ b/new_name.py
@@ -1,3 +1,3 @@ class Greeter
 import os
-print("hi")
+print("hello")
 x = 1
@@ -20,2 +20,3 @@ def later
 a = 1
+b = 2
 c = 3
\\ No newline at end of file
"""


def _rows(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_structured_patch_line_numbers_in_unified_view():
    diff = FileDiff("src/calc.py", hunks_from_structured_patch(STRUCTURED))
    rows = _rows(render(render_diff(diff, width=100, theme=THEME)).text)
    assert rows[0] == "src/calc.py  +2 −1"
    assert rows[1] == "@@ -10,4 +10,5 @@"
    assert rows[2:] == [
        " 10  10   def total(items):",
        " 11     -     return sum(items)",
        "     11 +     # ignore None",
        "     12 +     return sum(i for i in items if i)",
        " 12  13       # end",
    ]


def test_unified_patch_line_numbers_headers_and_rename():
    [diff] = parse_unified_diff(UNIFIED)
    rows = _rows(render(render_diff(diff, width=100, theme=THEME)).text)
    assert rows[0] == "old_name.py → new_name.py  +2 −1"
    assert rows[1] == "@@ -1,3 +1,3 @@ class Greeter"
    assert rows[2:6] == [
        "  1   1   import os",
        '  2     - print("hi")',
        '      2 + print("hello")',
        "  3   3   x = 1",
    ]
    assert rows[6] == "@@ -20,2 +20,3 @@ def later"
    assert rows[7:] == [
        " 20  20   a = 1",
        "     21 + b = 2",
        " 21  22   c = 3",
        "No newline at end of file",
    ]


def test_side_by_side_from_the_minimum_width_or_when_forced():
    diff = FileDiff("src/calc.py", hunks_from_structured_patch(STRUCTURED))
    narrow = render(
        render_diff(diff, width=SIDE_BY_SIDE_MIN_WIDTH - 1, theme=THEME), width=SIDE_BY_SIDE_MIN_WIDTH - 1
    ).text
    wide = render(
        render_diff(diff, width=SIDE_BY_SIDE_MIN_WIDTH, theme=THEME), width=SIDE_BY_SIDE_MIN_WIDTH
    ).text
    assert "│" not in narrow
    rows = _rows(wide)
    # The removed line sits beside the first added line; the second added line has an empty left side.
    changed = [row for row in rows if "return sum(items)" in row][0]
    assert changed.index("- ") < changed.index("│") < changed.index("11 +") < changed.index("# ignore None")
    lone = [row for row in rows if "if i)" in row][0]
    assert lone.split("│")[0].strip() == ""
    assert "12 +" in lone.split("│")[1]
    context = [row for row in rows if "def total" in row][0]
    assert context.count("def total") == 2 and "10" in context.split("│")[1]
    forced = render(render_diff(diff, width=80, theme=THEME, side_by_side=True), width=80).text
    assert "│" in forced
    unforced = render(render_diff(diff, width=200, theme=THEME, side_by_side=False), width=200).text
    assert "│" not in unforced


def test_long_lines_wrap_inside_their_column():
    hunks = hunks_from_structured_patch(
        [
            {
                "oldStart": 1,
                "oldLines": 1,
                "newStart": 1,
                "newLines": 1,
                "lines": ["-" + "x" * 150, "+" + "y" * 150],
            }
        ]
    )
    rows = _rows(render(render_diff(FileDiff("a.txt", hunks), width=60, theme=THEME), width=60).text)
    body = rows[2:]
    assert all(len(row) <= 60 for row in rows)
    assert sum(row.count("x") for row in body) == 150 and sum(row.count("y") for row in body) == 150
    continuation = [row for row in body if row.strip().startswith("x")][0]
    assert continuation.startswith(" " * 10)  # wrapped text stays right of the gutters


def test_changed_lines_have_their_backgrounds_and_changed_words_marked():
    hunks = hunks_from_structured_patch(
        [
            {
                "oldStart": 1,
                "oldLines": 1,
                "newStart": 1,
                "newLines": 1,
                "lines": ["-let x = 1;", "+let x = 2;"],
            }
        ]
    )
    ansi = render(render_diff(FileDiff("a.txt", hunks), width=80, theme=THEME), width=80).ansi
    assert "48;2;61;20;25" in ansi and "48;2;18;54;31" in ansi  # removed and added backgrounds
    assert "48;2;122;36;48m1" in ansi and "48;2;31;107;58m2" in ansi  # the changed words, stronger
    assert changed_ranges("let x = 1;", "let x = 2;") == ([(8, 9)], [(8, 9)])
    assert changed_ranges("completely", "different words here") is None


def test_a_huge_diff_is_cut_with_a_marker():
    lines = [f"+line {n}" for n in range(5000)]
    hunks = hunks_from_structured_patch(
        [{"oldStart": 0, "oldLines": 0, "newStart": 1, "newLines": 5000, "lines": lines}]
    )
    text = render(
        render_diff(FileDiff("big.txt", hunks), width=80, theme=THEME, limits=Limits(lines=100)), width=80
    ).text
    assert "line 99" in text and "line 100\n" not in text
    assert "… 4,900 more diff lines not shown" in text


def test_no_hunks_says_so():
    assert "(no changes)" in render(render_diff(FileDiff("a.py", []), width=80, theme=THEME)).text


def _color(text: Text, offset: int):
    return text.get_style_at_offset(CONSOLE, offset).color


def test_lexer_is_chosen_by_extension():
    assert lexer_for_path("src/main.rs").name == "Rust"
    assert lexer_for_path("x/y/app.py").name == "Python"
    assert lexer_for_path("Makefile").name == "Makefile"
    assert lexer_for_path("notes.unknownext") is None
    assert lexer_for_path("") is None
    assert lexer_for_path("a.rs") is lexer_for_path("b/c.rs")  # cached per file name

    keyword = token_style("monokai", Keyword)
    assert keyword.color is not None
    [rust], _ = highlight_code("fn main() {}", "main.rs", "monokai")
    [plain], _ = highlight_code("fn main() {}", "main.txt", "monokai")
    assert rust.spans and not plain.spans
    assert _color(rust, 0) == keyword.color
    [python_def], _ = highlight_code("def f(): pass", "a.py", "monokai")
    [rust_def], _ = highlight_code("def f(): pass", "a.rs", "monokai")
    assert _color(python_def, 0) == keyword.color
    assert _color(rust_def, 0) != keyword.color


def test_highlighting_keeps_multiline_context_within_a_hunk():
    code = 'x = """start\nstill in the string: def\n"""\ndef f(): pass'
    lines, _ = highlight_code(code, "a.py", "monokai")
    inside = lines[1]
    after = lines[3]
    # "def" inside the triple-quoted string is a string token, the real one a keyword.
    assert _color(inside, 21) != _color(after, 0)
