"""Diffs (structuredPatch hunks and unified patches alike) as unified or side-by-side highlighted views."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.model.diff import DiffLine, FileDiff, Hunk
from inspector.ui.render.highlight import highlight_lines, lexer_for_path
from inspector.ui.render.lines import Column, GutterLines
from inspector.ui.render.safe import DEFAULT_LIMITS, MARKER_STYLE, Limits, cut_marker, inline, split_lines
from inspector.ui.render.theme import RenderTheme
from inspector.ui.render.words import WORD_BUDGET, mark_changed_words

SIDE_BY_SIDE_MIN_WIDTH = 140
"""From this width on, ``render_diff`` shows old and new side by side unless told otherwise."""


@dataclass(slots=True)
class _Styles:
    number: Style
    added: Style
    removed: Style
    added_sign: Style
    removed_sign: Style
    added_word: Style
    removed_word: Style
    hunk: Style
    muted: Style

    @classmethod
    def of(cls, theme: RenderTheme) -> _Styles:
        return cls(
            number=Style(color=theme.line_number),
            added=Style(bgcolor=theme.diff_added_bg),
            removed=Style(bgcolor=theme.diff_removed_bg),
            added_sign=Style(color=theme.diff_added, bold=True),
            removed_sign=Style(color=theme.diff_removed, bold=True),
            added_word=Style(bgcolor=theme.diff_added_word_bg),
            removed_word=Style(bgcolor=theme.diff_removed_word_bg),
            hunk=Style(color=theme.diff_hunk),
            muted=Style(color=theme.muted, italic=True),
        )


@dataclass(slots=True)
class _Line:
    """A diff line with its highlighted text."""

    kind: str
    text: Text
    old_no: int | None
    new_no: int | None


def render_diff(
    file_diff: FileDiff,
    *,
    width: int,
    theme: RenderTheme,
    side_by_side: bool | None = None,
    limits: Limits = DEFAULT_LIMITS,
    show_path: bool = True,
    words: list[int] | None = None,
) -> RenderableType:
    """One file's diff: a header (path, +added −removed), then each hunk with its ``@@`` header.

    Unified (old and new line numbers, one sign column) below ``SIDE_BY_SIDE_MIN_WIDTH`` cells,
    side by side from there; ``side_by_side`` forces either. Lines are highlighted in the language
    the path suggests (plain when unknown); changed words within a changed line are marked.
    At most ``limits.lines`` diff lines are shown, then a marker.
    """
    styles = _Styles.of(theme)
    if side_by_side is None:
        side_by_side = width >= SIDE_BY_SIDE_MIN_WIDTH
    numbers = _number_width(file_diff)
    if side_by_side:
        view = GutterLines(
            [
                Column(numbers + 1),
                Column(2),
                Column(None),
                Column(1, repeat=True),  # the separator stays on the wrapped lines of a row
                Column(numbers + 1),
                Column(2),
                Column(None),
            ]
        )
    else:
        view = GutterLines([Column(numbers + 1), Column(numbers + 1), Column(2), Column(None)])
    if show_path:
        view.add_full(_header(file_diff, styles))
    if not file_diff.hunks:
        view.add_full(Text("(no changes)", styles.muted))
    budget = limits.lines
    words = words if words is not None else [WORD_BUDGET]  # the word matcher's steps left, shared
    lexer = lexer_for_path(file_diff.path)
    for hunk_index, hunk in enumerate(file_diff.hunks):
        if budget <= 0:
            rest = sum(len(h.lines) for h in file_diff.hunks[hunk_index:])
            view.add_full(cut_marker(rest, "diff lines"))
            break
        view.add_full(_hunk_header(hunk, styles))
        budget -= 1 if hunk_index else 0  # a later hunk's header is a line: 100,000 empty hunks were shown
        shown = _highlighted(hunk.lines[:budget], lexer, theme.syntax_style, limits)  # only what shows
        cut = len(hunk.lines) - budget
        budget -= len(shown)
        _mark_words(shown, styles, words)
        if side_by_side:
            _side_by_side_rows(view, shown, numbers, styles)
        else:
            _unified_rows(view, shown, numbers, styles)
        if cut > 0:
            rest = cut + sum(len(h.lines) for h in file_diff.hunks[hunk_index + 1 :])
            view.add_full(cut_marker(rest, "diff lines"))
            break
    return view


def render_diffs(
    diffs: list[FileDiff],
    *,
    width: int,
    theme: RenderTheme,
    side_by_side: bool | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> RenderableType:
    """Several files' diffs one after the other."""
    if not diffs:
        return Text("(empty diff)", Style(color=theme.muted, italic=True))
    parts: list[RenderableType] = []
    left = limits.lines  # one budget for all the files: each alone within it, a thousand were not
    words = [WORD_BUDGET]  # and one of the word matcher's steps
    for index, file_diff in enumerate(diffs):
        if left <= 0:
            parts.append(cut_marker(len(diffs) - index, "files"))
            break
        shown = replace(limits, lines=left)
        parts.append(
            render_diff(
                file_diff, width=width, theme=theme, side_by_side=side_by_side, limits=shown, words=words
            )
        )
        left -= 1 + sum(len(hunk.lines) + 1 for hunk in file_diff.hunks) or 1
    return parts[0] if len(parts) == 1 else Group(*parts)


def diff_from_content(path: str, content: str, limits: Limits = DEFAULT_LIMITS) -> FileDiff:
    """A created file as a diff that adds every line (at most ``limits.lines`` of them, plus a marker)."""
    lines, cut = split_lines(content, limits)
    hunk = Hunk(0, 0, 1, len(lines) + cut)
    hunk.lines = [DiffLine("+", text, None, number) for number, text in enumerate(lines, start=1)]
    if cut:
        hunk.lines.append(DiffLine("\\", f"{cut:,} more lines not shown"))
    return FileDiff(path, [hunk])


# -- building rows ---------------------------------------------------------------------------
def _header(file_diff: FileDiff, styles: _Styles) -> Text:
    text = Text()
    if file_diff.old_path and file_diff.old_path != file_diff.path:
        text.append(inline(file_diff.old_path, 300), "bold")
        text.append(" → ")
    text.append(inline(file_diff.path or "(no path)", 300), "bold")
    text.append(f"  +{file_diff.added}", styles.added_sign)
    text.append(f" −{file_diff.removed}", styles.removed_sign)
    return text


def _hunk_header(hunk: Hunk, styles: _Styles) -> Text:
    text = Text(inline(hunk.title, 300), styles.hunk)
    if hunk.header:
        text.append(" " + inline(hunk.header, 300), styles.muted)
    return text


def _number_width(file_diff: FileDiff) -> int:
    largest = 1
    for hunk in file_diff.hunks:
        largest = max(largest, hunk.old_start + hunk.old_lines, hunk.new_start + hunk.new_lines)
    return max(3, len(str(largest)))


def _highlighted(hunk_lines: list[DiffLine], lexer, style_name: str, limits: Limits) -> list[_Line]:
    """Lines of a hunk with text highlighted per side (old: context and removed; new: context and added)."""
    old_side = [line.text for line in hunk_lines if line.kind in " -"]
    new_side = [line.text for line in hunk_lines if line.kind in " +"]
    old_texts = iter(highlight_lines(old_side, lexer, style_name, limits))
    new_texts = iter(highlight_lines(new_side, lexer, style_name, limits))
    out = []
    for line in hunk_lines:
        if line.kind == " ":
            text = next(new_texts)
            next(old_texts)
        elif line.kind == "-":
            text = next(old_texts)
        elif line.kind == "+":
            text = next(new_texts)
        else:
            text = Text(inline(line.text or "\\ No newline at end of file", 300), MARKER_STYLE)
        out.append(_Line(line.kind, text, line.old_no, line.new_no))
    return out


def _mark_words(lines: list[_Line], styles: _Styles, budget: list[int]) -> None:
    """Pair each run of removed lines with the added run after it and mark the words that differ
    (within ``budget``, the word matcher's steps left for the whole diff)."""
    index = 0
    while index < len(lines):
        if lines[index].kind != "-":
            index += 1
            continue
        start = index
        while index < len(lines) and lines[index].kind == "-":
            index += 1
        middle = index
        while index < len(lines) and lines[index].kind == "+":
            index += 1
        for old, new in zip(lines[start:middle], lines[middle:index], strict=False):
            mark_changed_words(old.text, new.text, styles.removed_word, styles.added_word, budget)


def _number(value: int | None, width: int, style: Style) -> Text:
    return Text("" if value is None else str(value).rjust(width - 1) + " ", style)


def _cells(line: _Line | None, number: int | None, width: int, styles: _Styles) -> tuple[Text, Text, Text]:
    """Number, sign and text cells of one side of a line (blank cells when ``line`` is None)."""
    if line is None:
        return Text(), Text(), Text()
    background = styles.added if line.kind == "+" else styles.removed if line.kind == "-" else None
    sign_style = styles.added_sign if line.kind == "+" else styles.removed_sign
    number_cell = _number(number, width, styles.number + background if background else styles.number)
    sign = Text(
        line.kind + " " if line.kind in "+-" else "  ", sign_style + background if background else "", end=""
    )
    text = line.text.copy()
    if background:
        text.style = background
    return number_cell, sign, text


def _unified_rows(view: GutterLines, lines: list[_Line], numbers: int, styles: _Styles) -> None:
    for line in lines:
        if line.kind == "\\":
            view.add_full(line.text)
            continue
        number_cell, sign, text = _cells(line, line.old_no, numbers + 1, styles)
        new_cell = _number(line.new_no, numbers + 1, number_cell.style)  # type: ignore[arg-type]
        view.add_row(number_cell, new_cell, sign, text)


def _side_by_side_rows(view: GutterLines, lines: list[_Line], numbers: int, styles: _Styles) -> None:
    separator = Text("│", styles.number)
    for old, new in _pairs(lines):
        if old is not None and old.kind == "\\":
            view.add_full(old.text)
            continue
        left = _cells(old, old.old_no if old else None, numbers + 1, styles)
        right = _cells(new, new.new_no if new else None, numbers + 1, styles)
        view.add_row(*left, separator, *right)


def _pairs(lines: list[_Line]) -> list[tuple[_Line | None, _Line | None]]:
    """Rows of a side-by-side view: context on both sides, removed runs beside the added runs after them."""
    pairs: list[tuple[_Line | None, _Line | None]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.kind in " \\":
            pairs.append((line, line) if line.kind == " " else (line, None))
            index += 1
            continue
        removed: list[_Line] = []
        while index < len(lines) and lines[index].kind == "-":
            removed.append(lines[index])
            index += 1
        added: list[_Line] = []
        while index < len(lines) and lines[index].kind == "+":
            added.append(lines[index])
            index += 1
        for row in range(max(len(removed), len(added))):
            pairs.append(
                (removed[row] if row < len(removed) else None, added[row] if row < len(added) else None)
            )
    return pairs
