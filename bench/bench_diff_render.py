"""Bench: cost of render_diff (first and cached build, console render) against plain Text and rich Syntax."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.model.diff import FileDiff, hunks_from_structured_patch  # noqa: E402
from inspector.ui.render import RenderTheme, render_diff, warm_up  # noqa: E402

THEME = RenderTheme.dark()


def make_diff(size: int) -> tuple[FileDiff, list[str]]:
    """A Python file's lines as a diff of ``size`` lines: context, removed, added in turn."""
    source = Path(__file__).resolve().parents[1].joinpath("inspector/ui/render/diff_view.py").read_text()
    pool = source.splitlines()
    lines = [
        (" ", "-", "+")[n % 3] + pool[n % len(pool)] + ("  # changed" if n % 3 == 2 else "")
        for n in range(size)
    ]
    patch = [{"oldStart": 1, "oldLines": size, "newStart": 1, "newLines": size, "lines": lines}]
    return FileDiff(f"bench_{size}.py", hunks_from_structured_patch(patch)), [line[1:] for line in lines]


def timed(function, *args, **kwargs):
    """(seconds, return value) of one call."""
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return time.perf_counter() - start, value


def show(renderable, width: int) -> None:
    console(width).print(renderable)


def console(width: int) -> Console:
    return Console(file=io.StringIO(), width=width, force_terminal=True, color_system="truecolor")


def main() -> None:
    warm_up()
    print(
        f"{'lines':>6} {'view':>12} {'build 1st':>10} {'build again':>12} {'render':>8} "
        f"{'plain Text':>11} {'rich Syntax':>12} {'vs Syntax':>10}"
    )
    for size in (100, 1000, 2000):
        diff, code_lines = make_diff(size)
        code = "\n".join(code_lines)
        for width, side in ((100, False), (160, True)):
            first, _ = timed(render_diff, diff, width=width, theme=THEME, side_by_side=side)
            again, view = timed(render_diff, diff, width=width, theme=THEME, side_by_side=side)
            shown, _ = timed(show, view, width)
            plain, _ = timed(show, Text(code), width)
            syntax, _ = timed(
                show, Syntax(code, "python", theme=THEME.syntax_style, line_numbers=True), width
            )
            total = first + shown
            label = "side-by-side" if side else "unified"
            print(
                f"{size:>6} {label:>12} {first * 1000:>8.1f}ms {again * 1000:>10.1f}ms {shown * 1000:>6.1f}ms "
                f"{plain * 1000:>9.1f}ms {syntax * 1000:>10.1f}ms {total / syntax:>9.2f}x"
            )


if __name__ == "__main__":
    main()
