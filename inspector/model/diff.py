"""Diff hunks: one shape for Claude Code ``structuredPatch`` hunks and unified-diff patches."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspector.model.values import line_no

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")


@dataclass(slots=True)
class DiffLine:
    """One line of a hunk: ``kind`` is ' ', '-', '+' or '\\' (no newline marker)."""

    kind: str
    text: str
    old_no: int | None = None
    new_no: int | None = None


@dataclass(slots=True)
class Hunk:
    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: list[DiffLine] = field(default_factory=list)
    header: str = ""
    # the numbers as the record wrote them, when no file has them (negative, huge, not integers):
    # shown as written and marked invalid; the lines then carry no numbers
    invalid: str | None = None

    @property
    def title(self) -> str:
        """The hunk's ``@@ … @@`` line, as the record says it."""
        if self.invalid is not None:
            return f"@@ {self.invalid} @@ (invalid line numbers)"
        return f"@@ -{self.old_start},{self.old_lines} +{self.new_start},{self.new_lines} @@"


@dataclass(slots=True)
class FileDiff:
    """The hunks of one file."""

    path: str
    hunks: list[Hunk] = field(default_factory=list)
    old_path: str | None = None

    @property
    def added(self) -> int:
        return sum(1 for h in self.hunks for line in h.lines if line.kind == "+")

    @property
    def removed(self) -> int:
        return sum(1 for h in self.hunks for line in h.lines if line.kind == "-")


def _number(hunk: Hunk, raw_lines: list[str]) -> None:
    old_no: int | None = hunk.old_start
    new_no: int | None = hunk.new_start
    if hunk.invalid is not None:
        old_no = new_no = None
    for raw in raw_lines:
        kind, text = (raw[:1] or " "), raw[1:]
        if kind not in " +-\\":
            kind, text = " ", raw
        if kind == " ":
            hunk.lines.append(DiffLine(" ", text, old_no, new_no))
            old_no = None if old_no is None else old_no + 1
            new_no = None if new_no is None else new_no + 1
        elif kind == "-":
            hunk.lines.append(DiffLine("-", text, old_no, None))
            old_no = None if old_no is None else old_no + 1
        elif kind == "+":
            hunk.lines.append(DiffLine("+", text, None, new_no))
            new_no = None if new_no is None else new_no + 1
        else:
            hunk.lines.append(DiffLine("\\", text.strip()))


def _numbers(written: tuple[Any, Any, Any, Any], defaults: tuple[int, int, int, int]) -> Hunk:
    """A hunk from four numbers as a record wrote them (absent ones take ``defaults``)."""
    checked = [
        default if value is None else line_no(value) for value, default in zip(written, defaults, strict=True)
    ]
    if all(number is not None for number in checked):
        a, b, c, d = (int(number) for number in checked)  # type: ignore[arg-type]
        return Hunk(a, b, c, d)
    shown = [_shown(value) for value in written]
    return Hunk(0, 0, 0, 0, invalid=f"-{shown[0]},{shown[1]} +{shown[2]},{shown[3]}")


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value if len(value) <= 24 else f"{value[:12]}…({len(value)} digits)"
    if isinstance(value, int) and not isinstance(value, bool):
        return _shown(str(value)) if value.bit_length() < 14000 else "<huge>"
    return repr(value)[:24]


def hunks_from_structured_patch(patch: Any) -> list[Hunk]:
    """Read Claude Code ``structuredPatch`` (a list of hunk objects); bad entries are skipped."""
    hunks: list[Hunk] = []
    if not isinstance(patch, list):
        return hunks
    for entry in patch:
        if not isinstance(entry, dict):
            continue
        lines = entry.get("lines")
        if not isinstance(lines, list):
            continue
        written = tuple(entry.get(key) for key in ("oldStart", "oldLines", "newStart", "newLines"))
        hunk = _numbers(written, (1, 0, 1, 0))  # type: ignore[arg-type]
        _number(hunk, [line if isinstance(line, str) else str(line) for line in lines])
        hunks.append(hunk)
    return hunks


MATCH_BUDGET = 500_000
"""Steps the line matcher may take for one diff (a step: one diagonal tried or one line pair compared).
Myers' greedy algorithm takes about (N + M) x D steps for D changed lines, so a small change to a long
text is matched exactly; past the budget the changed middle is shown as all removed then all added.
(difflib's matcher was unbounded: seconds to minutes for texts of repeated or reordered lines.)"""


def hunks_from_texts(old: str, new: str, *, context: int = 3, budget: int = MATCH_BUDGET) -> list[Hunk]:
    """The hunks that turn ``old`` into ``new``, line by line, ``context`` lines around each change;
    lines are numbered from 1 in the texts given. None when the texts are the same. The work is
    bounded by ``budget`` steps of the matcher whatever the texts (see MATCH_BUDGET)."""
    if old == new:
        return []
    a, b = old.splitlines(), new.splitlines()
    hunks: list[Hunk] = []
    for group in _grouped(_changes(a, b, budget), context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        hunk = Hunk(i1 + 1 if i2 > i1 else i1, i2 - i1, j1 + 1 if j2 > j1 else j1, j2 - j1)
        lines: list[str] = []
        for changed, o1, o2, n1, n2 in group:
            if changed:
                lines += ["-" + line for line in a[o1:o2]]
                lines += ["+" + line for line in b[n1:n2]]
            else:
                lines += [" " + line for line in a[o1:o2]]
        _number(hunk, lines)
        hunks.append(hunk)
    return hunks


_Span = tuple[bool, int, int, int, int]
"""(changed, old start, old end, new start, new end): a run of equal lines, or of changed ones."""


def _changes(a: list[str], b: list[str], budget: int) -> list[_Span]:
    """``a`` and ``b`` as runs of equal and changed lines (all changed between a common head and tail
    when the matcher runs out of ``budget``)."""
    runs, _ = matching_runs(a, b, budget)
    if runs is None:
        head = runs_of_head_and_tail(a, b)
        runs = [run for run in head if run[2]]
    spans: list[_Span] = []
    i = j = 0
    for x, y, size in [*runs, (len(a), len(b), 0)]:
        if i < x or j < y:
            spans.append((True, i, x, j, y))
        if size:
            spans.append((False, x, x + size, y, y + size))
        i, j = x + size, y + size
    return spans


def runs_of_head_and_tail(
    a: Sequence[Any], b: Sequence[Any]
) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The equal items ``a`` and ``b`` start with and end with, as runs (start in a, start in b, length)."""
    head, limit = 0, min(len(a), len(b))
    while head < limit and a[head] == b[head]:
        head += 1
    tail, limit = 0, limit - head
    while tail < limit and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return (0, 0, head), (len(a) - tail, len(b) - tail, tail)


def matching_runs(
    a: Sequence[Any], b: Sequence[Any], budget: int
) -> tuple[list[tuple[int, int, int]] | None, int]:
    """The runs of equal items (start in a, start in b, length) a shortest edit from ``a`` to ``b``
    keeps, and the steps it took: the common head and tail, then the middle matched by Myers' greedy
    algorithm; None for the runs past ``budget`` steps (any two sequences: lines, a line's words)."""
    (_, _, head), (tail_a, tail_b, tail) = runs_of_head_and_tail(a, b)
    blocks, steps = _matching_blocks(a[head:tail_a], b[head:tail_b], budget)
    if blocks is None:
        return None, steps
    runs = [(0, 0, head)] if head else []
    runs += [(x + head, y + head, size) for x, y, size in blocks]
    return runs + ([(tail_a, tail_b, tail)] if tail else []), steps


def _matching_blocks(
    a: Sequence[Any], b: Sequence[Any], budget: int
) -> tuple[list[tuple[int, int, int]] | None, int]:
    """The runs of equal items (start in a, start in b, length) of a shortest edit script from ``a``
    to ``b`` (Myers' greedy algorithm, remembering each round's furthest points to walk back), or None
    past ``budget`` steps; and the steps taken."""
    n, m = len(a), len(b)
    if not n or not m:
        return [], 0
    mid = n + m + 1  # furthest[mid + k]: the furthest x reached on diagonal k (y = x - k)
    furthest = [0] * (2 * mid + 1)
    rounds: list[list[int]] = []  # the furthest points of diagonals -d..d after round d
    steps = 0
    for d in range(n + m + 1):
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and furthest[mid + k - 1] < furthest[mid + k + 1]):
                x = furthest[mid + k + 1]
            else:
                x = furthest[mid + k - 1] + 1
            y, start = x - k, x
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            steps += 1 + x - start
            furthest[mid + k] = x
            if x >= n and y >= m:
                rounds.append(furthest[mid - d : mid + d + 1])
                return _walk_back(rounds, n, m), steps
        rounds.append(furthest[mid - d : mid + d + 1])
        if steps > budget:
            return None, steps
    return None, steps  # not reached: round n + m always ends


def _walk_back(rounds: list[list[int]], n: int, m: int) -> list[tuple[int, int, int]]:
    """The equal runs of the path the rounds found, from its end (n, m) back to (0, 0)."""
    blocks: list[tuple[int, int, int]] = []
    x, y = n, m
    for d in range(len(rounds) - 1, 0, -1):
        before = rounds[d - 1]  # diagonal k at before[k + d - 1]
        k = x - y
        down = k == -d or (k != d and before[k - 1 + d - 1] < before[k + 1 + d - 1])
        came_from = k + 1 if down else k - 1
        from_x = before[came_from + d - 1]
        snake_x = from_x if down else from_x + 1  # where the round's move ended and its snake began
        if x > snake_x:
            blocks.append((snake_x, snake_x - k, x - snake_x))
        x, y = from_x, from_x - came_from
    if x > 0:
        blocks.append((0, 0, x))
    blocks.reverse()
    return blocks


def _grouped(spans: list[_Span], context: int) -> list[list[_Span]]:
    """The spans cut into hunks: each change with at most ``context`` equal lines around it, changes
    closer than twice that in one hunk; none when no line changed (the texts differ in line ends)."""
    groups: list[list[_Span]] = []
    current: list[_Span] = []
    last = len(spans) - 1
    for index, (changed, i1, i2, j1, j2) in enumerate(spans):
        if changed:
            current.append((True, i1, i2, j1, j2))
            continue
        if index == 0:  # leading equal lines: the last few only
            i1, j1 = max(i1, i2 - context), max(j1, j2 - context)
        if index == last:  # trailing equal lines: the first few only
            i2, j2 = min(i2, i1 + context), min(j2, j1 + context)
        if index not in (0, last) and i2 - i1 > 2 * context:
            current.append((False, i1, i1 + context, j1, j1 + context))
            groups.append(current)
            current = [(False, i2 - context, i2, j2 - context, j2)]
        elif i2 > i1:
            current.append((False, i1, i2, j1, j2))
    if current:
        groups.append(current)
    return [group for group in groups if any(span[0] for span in group)]


def parse_unified_diff(text: str, path: str = "") -> list[FileDiff]:
    """Parse a unified diff (``---``/``+++``/``@@``) into files and hunks.

    A patch with hunks but no file headers yields one file named ``path``. Linear in the text: the
    lines a hunk has taken are counted as they come (a hunk of 20,000 lines starting ``--- `` took 47 s
    when they were counted again at each).
    """
    files: list[FileDiff] = []
    current: FileDiff | None = None
    hunk: Hunk | None = None
    pending: list[str] = []
    old_seen = new_seen = 0  # the old and new lines of ``pending`` (context counts in both)
    old_path: str | None = None

    def close_hunk() -> None:
        nonlocal hunk, pending, old_seen, new_seen
        if hunk is not None:
            _number(hunk, pending)
        hunk, pending, old_seen, new_seen = None, [], 0, 0

    for line in text.splitlines():
        if line.startswith("--- ") and (
            hunk is None or (old_seen >= hunk.old_lines and new_seen >= hunk.new_lines)
        ):
            close_hunk()
            old_path = _strip_prefix(line[4:])
            continue
        if line.startswith("+++ ") and old_path is not None and hunk is None:
            current = FileDiff(_strip_prefix(line[4:]), old_path=old_path)
            files.append(current)
            old_path = None
            continue
        match = _HUNK_HEADER.match(line)
        if match:
            close_hunk()
            if current is None:
                current = FileDiff(path)
                files.append(current)
            a, b, c, d, rest = match.groups()
            hunk = _numbers((a, b, c, d), (1, 1, 1, 1))
            hunk.header = rest.strip()
            current.hunks.append(hunk)
            continue
        if hunk is not None:
            pending.append(line)
            sign = line[:1]
            old_seen += sign in (" ", "-", "")
            new_seen += sign in (" ", "+", "")
    close_hunk()
    return files


_HUNK_START = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines breaks


def has_hunk(text: str) -> bool:
    """Whether ``parse_unified_diff(text)`` finds a hunk, without parsing it: a line that is a hunk
    header (no ``---`` or ``+++`` line is one, so none is taken for a file header instead), looked for
    only where ``@@ -`` starts a line (none of the header's characters breaks a line)."""
    at = text.find("@@ -")
    while at >= 0:
        if (at == 0 or text[at - 1] in _LINE_BREAKS) and _HUNK_START.match(text, at):
            return True
        at = text.find("@@ -", at + 1)
    return False


def _strip_prefix(name: str) -> str:
    name = name.split("\t", 1)[0].strip()
    if name.startswith(("a/", "b/")):
        return name[2:]
    return name
