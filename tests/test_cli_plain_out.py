"""``stats`` written without Rich (standard output no terminal) is, byte for byte, what Rich writes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from inspector.cli import plain_out
from inspector.model.tool_stats import ToolFigures
from inspector.tool_figures import figure_lines, figure_strings

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests/fixtures/real/bradymholt_dotfiles/e77c7d1f-1b41-4e24-880a-08a2bad9ad7b.jsonl"

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=90) | st.text(
    st.sampled_from("abc XYZ-_/.,:;()[]0123456789…é漢"), max_size=90
)
ascii_texts = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
word_lists = st.lists(st.text("abcdefghij, ", min_size=1, max_size=24), max_size=40).map(" ".join)
"""Values as the tools row has them (``Bash 9, Edit 6, ...``): long, wrapped at their words."""


def rich_table(title: str, rows: list[tuple[str, str]], width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, soft_wrap=True, force_terminal=False)
    table = Table(title=Text(title), show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    for name, value in rows:
        table.add_row(Text(name), Text(value))
    console.print(table)
    return out.getvalue()


@settings(max_examples=1500, deadline=None)
@given(
    texts | ascii_texts,
    st.lists(st.tuples(ascii_texts, texts | ascii_texts | word_lists), min_size=1, max_size=6),
    st.integers(20, 220),
)
def test_the_plain_table_is_what_rich_writes_or_none(title, rows, width):
    lines = plain_out.table(title, rows, width)
    event("written plain" if lines is not None else "left to Rich")
    if lines is not None:
        assert "".join(line + "\n" for line in lines) == rich_table(title, rows, width)


def test_a_table_that_fits_is_written_plain():
    rows = [("format", "claude"), ("latency p50/p90/p99", "1s / 2s / 3s"), ("tools", "-")]
    for title in ("a/b.jsonl", "x" * 120, ""):
        lines = plain_out.table(title, rows, 80)
        assert lines is not None
        assert "".join(line + "\n" for line in lines) == rich_table(title, rows, 80)
    tools = [("format", "claude"), ("tools", "Bash 9, " * 20)]  # wrapped at its words
    assert plain_out.table("t", tools, 80) is not None
    assert "".join(line + "\n" for line in plain_out.table("t", tools, 80) or []) == rich_table(
        "t", tools, 80
    )
    assert plain_out.table("t", [("tools", "x" * 100)], 80) is None  # a word cut: Rich writes it


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.builds(
            ToolFigures,
            tool=texts,
            count=st.integers(0, 10**6),
            failures=st.integers(0, 10**6),
            latencies=st.lists(st.floats(0, 1e7), max_size=5),
        ),
        max_size=4,
    ),
    st.integers(10, 200),
    st.none() | st.integers(0, 3),
)
def test_per_tool_strings_are_the_lines_text(figures, width, limit):
    lines = figure_lines(figures, limit, width, failed="bold red")
    assert figure_strings(figures, limit, width) == [line.plain for line in lines]


def test_stats_into_a_pipe_imports_no_rich_and_writes_what_rich_does():
    code = (
        "import sys\nfrom inspector.cli import main\ncode = main(sys.argv[1:])\n"
        "sys.stdout.flush()\nprint('rich' in sys.modules, file=sys.stderr)\n"
    )
    plain = subprocess.run(
        [sys.executable, "-c", code, "stats", str(SAMPLE)], capture_output=True, text=True, check=True
    )
    assert plain.stderr.strip() == "False"
    styled = subprocess.run(  # Rich writes styles into this pipe: Rich writes it
        [sys.executable, "-c", code, "stats", str(SAMPLE)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TTY_COMPATIBLE": "1"},
    )
    assert styled.stderr.strip() == "True"
    assert "tool" in plain.stdout and "latency p50/p90/p99" in plain.stdout
