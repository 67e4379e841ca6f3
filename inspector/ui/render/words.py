"""Word-level changes between a removed line and the added line that replaces it."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from rich.style import Style
from rich.text import Text

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
MAX_WORD_DIFF_CHARS = 1000
"""Longer lines are not compared word by word (the matcher is quadratic)."""
MIN_SIMILARITY = 0.3
"""Below this similarity the lines are different lines, and marking every word would be noise."""


def changed_ranges(old: str, new: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """Character ranges that differ in ``old`` and in ``new``, compared word by word.

    None when the lines are too long, identical, or too different for the marks to help.
    """
    if old == new or len(old) > MAX_WORD_DIFF_CHARS or len(new) > MAX_WORD_DIFF_CHARS:
        return None
    old_tokens = _TOKEN.findall(old)
    new_tokens = _TOKEN.findall(new)
    matcher = SequenceMatcher(None, old_tokens, new_tokens, autojunk=False)
    if matcher.ratio() < MIN_SIMILARITY:
        return None
    old_offsets = _offsets(old_tokens)
    new_offsets = _offsets(new_tokens)
    old_ranges: list[tuple[int, int]] = []
    new_ranges: list[tuple[int, int]] = []
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if a2 > a1:
            old_ranges.append((old_offsets[a1], old_offsets[a2]))
        if b2 > b1:
            new_ranges.append((new_offsets[b1], new_offsets[b2]))
    return old_ranges, new_ranges


def _offsets(tokens: list[str]) -> list[int]:
    offsets = [0]
    for token in tokens:
        offsets.append(offsets[-1] + len(token))
    return offsets


def mark_changed_words(old: Text, new: Text, old_style: Style, new_style: Style) -> None:
    """Stylize the differing words of two highlighted lines in place."""
    ranges = changed_ranges(old.plain, new.plain)
    if ranges is None:
        return
    for start, end in ranges[0]:
        old.stylize(old_style, start, end)
    for start, end in ranges[1]:
        new.stylize(new_style, start, end)
