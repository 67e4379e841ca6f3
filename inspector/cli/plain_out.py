"""Plain text where Rich would write no styles: the headless commands' tables without importing Rich.

Rich costs a headless command a fifth of its start-up; when standard output is no terminal (a pipe, a
file: how scripts run ``stats``), what Rich writes is plain text laid out by simple rules. ``width`` says
whether Rich would style the output and the width it would lay it out in; ``table`` lays out a two-column
table as Rich does when it fits that width unwrapped, and answers None for anything else (Rich writes it).
"""

from __future__ import annotations

import builtins
import os
import sys

WIDTH = 80
"""Rich's width when no stream is a terminal and COLUMNS says nothing."""


def width() -> int | None:
    """The width Rich would lay standard output out in when it would write no styles, else None."""
    if sys.platform == "win32" or hasattr(builtins, "get_ipython"):
        return None  # Rich's legacy Windows console and Jupyter have rules of their own
    if getattr(sys.stdin, "__module__", "").startswith("idlelib"):
        return None
    environ = os.environ
    compatible = environ.get("TTY_COMPATIBLE", "")
    if compatible == "1" or (compatible != "0" and environ.get("FORCE_COLOR")):
        return None  # Rich writes styles though this is no terminal
    if compatible != "0" and environ.get("FORCE_COLOR") is None:
        try:
            if sys.stdout.isatty():
                return None
        except (AttributeError, ValueError):
            return None
    found = 0
    for descriptor in (0, 1, 2):  # a terminal on another stream gives its width, as Rich has it
        try:
            found = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        found = int(columns)
    return found or WIDTH


def _plain(text: str) -> bool:
    """Each character is one cell and Rich writes it as it is (an empty cell Rich measures otherwise)."""
    return bool(text) and text.isascii() and text.isprintable()


def table(title: str, rows: list[tuple[str, str]], width: int) -> list[str] | None:
    """The lines of Rich's ``Table(title=Text(title), show_header=False, box=None)`` of two columns,
    printed by a soft-wrapping console ``width`` wide; None when Rich would lay it out otherwise (a value
    wrapped in its column, a character that is not one cell)."""
    if (title and not _plain(title)) or not all(_plain(name) and _plain(value) for name, value in rows):
        return None
    first = max((len(name) for name, _ in rows), default=0) + 2  # a space either side of each cell
    second = max((len(value) for _, value in rows), default=0) + 2
    if not rows or first + second > width:
        return None
    lines = [title] if title else []  # a soft-wrapping console writes it as it is (neither cut nor centred)
    lines += [f" {name.ljust(first - 2)}  {value.ljust(second - 2)} " for name, value in rows]
    return lines
