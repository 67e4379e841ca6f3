"""Plain text where Rich would write no styles: the headless commands' tables without importing Rich.

Rich costs a headless command a fifth of its start-up; when standard output is no terminal (a pipe, a
file: how scripts run ``stats``), what Rich writes is plain text laid out by simple rules. ``width`` says
whether Rich would style the output and the width it would lay it out in; ``table`` lays out a two-column
table as Rich does when it fits that width unwrapped, and answers None for anything else (Rich writes it).
"""

from __future__ import annotations

import builtins
import os
import re
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
    printed by a soft-wrapping console ``width`` wide; None when Rich would lay it out otherwise (a name
    wrapped in its column, a word longer than the values' column, a character that is not one cell)."""
    if (title and not _plain(title)) or not all(_plain(name) and _plain(value) for name, value in rows):
        return None
    first = max((len(name) for name, _ in rows), default=0) + 2  # a space either side of each cell
    second = max((len(value) for _, value in rows), default=0) + 2
    if not rows:
        return None
    if first + second > width:
        # Rich takes the excess off the widest column down to the next one's width: the values' column
        # alone, when it can give all of it; its values are then wrapped at their words
        if second <= first or second - first < first + second - width:
            return None
        second = width - first
    inner = second - 2
    lines = [title] if title else []  # a soft-wrapping console writes it as it is (neither cut nor centred)
    for name, value in rows:
        wrapped = _wrapped(value, inner)
        if wrapped is None:
            return None
        lines.append(f" {name.ljust(first - 2)}  {wrapped[0].ljust(inner)} ")
        lines += [f"{' ' * first} {more.ljust(inner)} " for more in wrapped[1:]]
    return lines


def _wrapped(text: str, cells: int) -> list[str] | None:
    """``text`` broken at its words into lines of at most ``cells`` (a word with the spaces after it goes
    on the line while the word itself fits), each without its trailing spaces, as Rich wraps a cell;
    None when a word is longer than a line (Rich cuts it)."""
    lines: list[str] = []
    start = used = 0
    for word in _WORDS.finditer(text):
        length = len(word.group().rstrip())
        if length > cells:
            return None
        if cells - used >= length:
            used += len(word.group())
        elif used and word.start():
            lines.append(text[start : word.start()].rstrip())
            start, used = word.start(), len(word.group())
    lines.append(text[start:].rstrip())
    return lines


_WORDS = re.compile(r"\s*\S+\s*")
"""A word and the spaces around it (those before it only at the start of the text)."""
