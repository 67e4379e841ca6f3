"""Diff hunks: one shape for Claude Code ``structuredPatch`` hunks and unified-diff patches."""

from __future__ import annotations

import difflib
import re
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


MAX_MATCHED_LINES = 20_000
"""Texts longer than this (in lines, both sides) are shown as all removed then all added: matching
lines is quadratic at worst, and a detail must open at once."""


def hunks_from_texts(old: str, new: str, *, context: int = 3) -> list[Hunk]:
    """The hunks that turn ``old`` into ``new``, line by line, ``context`` lines around each change;
    lines are numbered from 1 in the texts given. None when the texts are the same."""
    if old == new:
        return []
    a, b = old.splitlines(), new.splitlines()
    if len(a) + len(b) > MAX_MATCHED_LINES:
        groups: list[list[tuple[str, int, int, int, int]]] = [[("replace", 0, len(a), 0, len(b))]]
    else:
        groups = list(difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context))
    hunks: list[Hunk] = []
    for group in groups:
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        if all(tag == "equal" for tag, *_ in group):
            continue  # the texts differ only in their line endings
        hunk = Hunk(i1 + 1 if i2 > i1 else i1, i2 - i1, j1 + 1 if j2 > j1 else j1, j2 - j1)
        lines: list[str] = []
        for tag, o1, o2, n1, n2 in group:
            if tag == "equal":
                lines += [" " + line for line in a[o1:o2]]
            else:
                lines += ["-" + line for line in a[o1:o2]]
                lines += ["+" + line for line in b[n1:n2]]
        _number(hunk, lines)
        hunks.append(hunk)
    return hunks


def parse_unified_diff(text: str, path: str = "") -> list[FileDiff]:
    """Parse a unified diff (``---``/``+++``/``@@``) into files and hunks.

    A patch with hunks but no file headers yields one file named ``path``.
    """
    files: list[FileDiff] = []
    current: FileDiff | None = None
    hunk: Hunk | None = None
    pending: list[str] = []
    old_path: str | None = None

    def close_hunk() -> None:
        nonlocal hunk, pending
        if hunk is not None:
            _number(hunk, pending)
        hunk, pending = None, []

    for line in text.splitlines():
        if line.startswith("--- ") and (hunk is None or _hunk_full(hunk, pending)):
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


def _hunk_full(hunk: Hunk, pending: list[str]) -> bool:
    old = sum(1 for line in pending if line[:1] in (" ", "-", ""))
    new = sum(1 for line in pending if line[:1] in (" ", "+", ""))
    return old >= hunk.old_lines and new >= hunk.new_lines


def _strip_prefix(name: str) -> str:
    name = name.split("\t", 1)[0].strip()
    if name.startswith(("a/", "b/")):
        return name[2:]
    return name
