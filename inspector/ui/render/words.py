"""Word-level changes between a removed line and the added line that replaces it."""

from __future__ import annotations

import re

from rich.style import Style
from rich.text import Text

from inspector.model.diff import matching_runs

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
MAX_WORD_DIFF_CHARS = 1000
"""Longer lines are not compared word by word."""
MIN_SIMILARITY = 0.3
"""Below this similarity the lines are different lines, and marking every word would be noise."""


WORD_BUDGET = 200_000
"""Steps the word matcher may take for one detail, all its lines together (see model.diff.matching_runs):
difflib's matcher took 0.6 s for one pair of 1,000-character lines of repeated words, minutes for a diff
of a thousand such pairs. Past the budget, lines are shown without their words marked."""


def changed_ranges(
    old: str, new: str, budget: list[int] | None = None
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """Character ranges that differ in ``old`` and in ``new``, compared word by word.

    None when the lines are too long, identical, or too different for the marks to help, or when
    ``budget`` (the steps left, shared by the caller's lines and spent here) runs out.
    """
    if old == new or len(old) > MAX_WORD_DIFF_CHARS or len(new) > MAX_WORD_DIFF_CHARS:
        return None
    budget = budget if budget is not None else [WORD_BUDGET]
    if budget[0] <= 0:
        return None
    old_tokens = _TOKEN.findall(old)
    new_tokens = _TOKEN.findall(new)
    runs, steps = matching_runs(old_tokens, new_tokens, budget[0])
    budget[0] -= steps
    if runs is None:
        return None
    if 2 * sum(size for _, _, size in runs) < MIN_SIMILARITY * (len(old_tokens) + len(new_tokens)):
        return None
    old_offsets = _offsets(old_tokens)
    new_offsets = _offsets(new_tokens)
    old_ranges: list[tuple[int, int]] = []
    new_ranges: list[tuple[int, int]] = []
    a = b = 0
    for x, y, size in [*runs, (len(old_tokens), len(new_tokens), 0)]:
        if x > a:
            old_ranges.append((old_offsets[a], old_offsets[x]))
        if y > b:
            new_ranges.append((new_offsets[b], new_offsets[y]))
        a, b = x + size, y + size
    return old_ranges, new_ranges


def _offsets(tokens: list[str]) -> list[int]:
    offsets = [0]
    for token in tokens:
        offsets.append(offsets[-1] + len(token))
    return offsets


def mark_changed_words(
    old: Text, new: Text, old_style: Style, new_style: Style, budget: list[int] | None = None
) -> None:
    """Stylize the differing words of two highlighted lines in place (``budget``: see changed_ranges)."""
    ranges = changed_ranges(old.plain, new.plain, budget)
    if ranges is None:
        return
    for start, end in ranges[0]:
        old.stylize(old_style, start, end)
    for start, end in ranges[1]:
        new.stylize(new_style, start, end)
